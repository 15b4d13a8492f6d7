import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import PipelineCore

/// One HTTP POST to a provider: where, which headers (the key among them), and the JSON body.
struct ProviderRequest: Sendable {
    let url: URL
    let headers: [(name: String, value: String)]
    let body: Data

    /// The header's value, for tests and logs that need one (never log the key's header).
    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// A provider's answer: status, headers (lower-cased names) and body.
struct ProviderResponse: Sendable {
    let status: Int
    let headers: [String: String]
    let body: Data
}

/// Sends provider requests with AsyncHTTPClient on SwiftNIO's shared event loops.
///
/// Not URLSession: on Linux its libcurl loop woke about 700 times a second while a request was in flight, so one
/// 5-second call cost 1.2–1.8 CPU seconds (measured, see `docs/llm.md`). An event loop sleeps in `epoll_wait`.
enum ProviderTransport {
    /// The process-wide client: created on first use, lives as long as the process (so it is never shut down),
    /// enough connections per host for every worker to have one in flight.
    static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
        // A refused or failed connection fails its request at once, so the caller's own retries (with backoff and
        // a message naming llm.baseURL) decide; the pool's silent reconnecting would run into the deadline instead.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.redirectConfiguration = .disallow
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    /// Why a body was refused: larger than a receipt reply can be.
    struct ReplyTooLarge: Error {}

    /// Sends `request`, collecting at most `maximumBytes` of the reply, giving up at `deadline`.
    /// - Throws: ``ReplyTooLarge``, ``DeadlinePassed``, or the client's connection errors.
    static func send(
        _ request: ProviderRequest, maximumBytes: Int, deadline: ContinuousClock.Instant
    ) async throws -> ProviderResponse {
        var http = HTTPClientRequest(url: request.url.absoluteString)
        http.method = .POST
        for header in request.headers { http.headers.add(name: header.name, value: header.value) }
        http.body = .bytes(request.body)
        let remaining = ContinuousClock.now.duration(to: deadline)
        // Whole milliseconds (saturating), within what NIO's nanosecond `TimeAmount` holds.
        let milliseconds = min(max(0, remaining.milliseconds), Int64.max / 1_000_000)
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await client.execute(http, timeout: .milliseconds(milliseconds))
            body = try await response.body.collect(upTo: maximumBytes)
        } catch is NIOTooManyBytesError {
            throw ReplyTooLarge()
        } catch let error as HTTPClientError where error == .deadlineExceeded {
            throw DeadlinePassed()
        }
        var headers: [String: String] = [:]
        for (name, value) in response.headers { headers[name.lowercased()] = value }
        return ProviderResponse(status: Int(response.status.code), headers: headers, body: Data(body.readableBytesView))
    }
}
