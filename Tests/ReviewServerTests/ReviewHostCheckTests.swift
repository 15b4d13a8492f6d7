import DatabaseTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PipelineCore
import PostgresStore
import ReviewServer
import TestSupport
import Testing

/// The review page behind DNS rebinding (issue 26): a page at `rebind.attacker.test` that resolves to 127.0.0.1
/// reaches the server with its own name in `Host`, and with it in `Origin` when it posts. Real requests over
/// loopback with `curl`, which sends the forged headers as a browser would.
@Suite struct ReviewHostCheckTests {
    private struct Reply {
        let status: Int
        let body: String
    }

    /// Serves the page on 127.0.0.1 (a free port) over a fresh database.
    private func withLivePage(
        options: ReviewServerOptions = ReviewServerOptions(reviewer: "tester (review page)"),
        _ body: @Sendable (_ port: Int, PostgresConnection) async throws -> Void
    ) async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let server = try ReviewServer(store: PostgresReviewStore(database: connection), options: options)
            let application = Application(
                router: server.makeRouter(),
                configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)))
            try await application.test(.live) { client in try await body(try #require(client.port), connection) }
        }
    }

    /// One request with `curl`; `headers` replace curl's own (`Host:` with no value sends none). It runs on a thread
    /// of its own: the page's handlers need the cooperative pool (two threads here) while curl waits.
    private func curl(
        _ port: Int, _ path: String, headers: [String] = [], form: String? = nil, http10: Bool = false
    ) async throws -> Reply {
        var arguments = ["-s", "-o", "-", "-w", "\n%{http_code}", "--max-time", "10"]
        if http10 { arguments.append("-0") }
        for header in headers { arguments += ["-H", header] }
        if let form { arguments += ["--data-binary", form] }
        arguments.append("http://127.0.0.1:\(port)\(path)")
        let command = arguments
        let result = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try ChildProcess.run("/usr/bin/curl", command) })
            }
        }
        let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        return Reply(status: Int(lines.last ?? "") ?? 0, body: lines.dropLast().joined(separator: "\n"))
    }

    private func csrf(_ html: String) throws -> String {
        String(try #require(html.firstMatch(of: /name="csrf" value="([0-9a-f]+)"/)).1)
    }

    @Test func onlyTheListenAddressesOwnNamesAreServed() async throws {
        try await withLivePage { port, connection in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            var own: [Reply] = []
            for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)", "LocalHost.:\(port)"] {
                own.append(try await curl(port, "/receipts/\(id)", headers: ["Host: \(host)"]))
            }
            let rebound = try await curl(port, "/receipts/\(id)", headers: ["Host: rebind.attacker.test:\(port)"])
            let image = try await curl(port, "/receipts/\(id)/image", headers: ["Host: rebind.attacker.test"])
            let suffix = try await curl(port, "/queue", headers: ["Host: localhost.attacker.test:\(port)"])
            let noHost = try await curl(port, "/queue", headers: ["Host:"], http10: true)
            // Written by hand: curl sends one Host however many it is given.
            let twoHosts = try ChildProcess.run(
                "/bin/bash",
                [
                    "-c",
                    "exec 3<>/dev/tcp/127.0.0.1/\(port); printf 'GET /queue HTTP/1.1\\r\\nHost: 127.0.0.1:\(port)\\r\\n"
                        + "Host: rebind.attacker.test\\r\\nConnection: close\\r\\n\\r\\n' >&3; head -1 <&3",
                ])

            for reply in own { #expect(reply.status == 200, "\(reply.body)") }
            for reply in [rebound, image, suffix, noHost] {
                #expect(reply.status == 421, "\(reply.status): \(reply.body)")
                #expect(!reply.body.contains("csrf"))
            }
            #expect(rebound.body.contains("review.allowedHosts"), "\(rebound.body)")
            #expect(twoHosts.standardOutput.hasPrefix("HTTP/1.1 400"), "two Host fields: \(twoHosts.standardOutput)")
        }
    }

    @Test func aPostThroughARebindingNameIsRefusedAndChangesNothing() async throws {
        try await withLivePage { port, connection in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            let token = try csrf(try await curl(port, "/receipts/\(id)").body)
            let form = "csrf=\(token)&action=reject"

            let rebound = try await curl(
                port, "/receipts/\(id)",
                headers: [
                    "Host: rebind.attacker.test:\(port)",
                    "Origin: http://rebind.attacker.test:\(port)",
                ], form: form)
            let foreignOrigin = try await curl(
                port, "/receipts/\(id)", headers: ["Origin: http://rebind.attacker.test:\(port)"], form: form)
            let nullOrigin = try await curl(port, "/receipts/\(id)", headers: ["Origin: null"], form: form)
            let otherPort = try await curl(port, "/receipts/\(id)", headers: ["Origin: http://127.0.0.1:1"], form: form)

            #expect(rebound.status == 421, "\(rebound.body)")
            for reply in [foreignOrigin, nullOrigin, otherPort] { #expect(reply.status == 403, "\(reply.body)") }
            #expect(try await connection.query("SELECT status FROM expenses").first?.string("status") == "needs_review")
            let own = try await curl(
                port, "/receipts/\(id)", headers: ["Origin: http://127.0.0.1:\(port)"],
                form: "csrf=\(token)&action=save&merchant=Corner+Bakery")
            #expect(own.status == 303, "\(own.body)")
        }
    }

    @Test func configuredNamesAndOnEveryAddressAnyIPLiteralAreServed() async throws {
        let proxied = ReviewServerOptions(reviewer: "x", allowedHosts: ["receipts.example.lan"])
        try await withLivePage(options: proxied) { port, _ in
            let named = try await curl(port, "/queue", headers: ["Host: Receipts.Example.LAN:\(port)"])
            let lanAddress = try await curl(port, "/queue", headers: ["Host: 192.168.1.20:\(port)"])
            #expect(named.status == 200, "\(named.body)")
            #expect(lanAddress.status == 421, "a loopback page is not reached by a LAN address: \(lanAddress.body)")
        }
        let everywhere = ReviewServerOptions(host: "0.0.0.0", token: "s3cret", reviewer: "x")
        try await withLivePage(options: everywhere) { port, _ in
            let bearer = "Authorization: Bearer s3cret"
            let lanAddress = try await curl(port, "/queue", headers: [bearer, "Host: 192.168.1.20:\(port)"])
            let ipv6 = try await curl(port, "/queue", headers: [bearer, "Host: [fe80::1]:\(port)"])
            let rebound = try await curl(port, "/queue", headers: [bearer, "Host: rebind.attacker.test:\(port)"])
            #expect(lanAddress.status == 200, "\(lanAddress.body)")
            #expect(ipv6.status == 200, "\(ipv6.body)")
            #expect(rebound.status == 421, "\(rebound.body)")
        }
    }

    @Test func aBodyOverTheLimitIsAnswered413() async throws {
        try await withLivePage { port, connection in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            let token = try csrf(try await curl(port, "/receipts/\(id)").body)
            // Through a file: 300 KB is more than one command-line argument may hold.
            let huge = FileManager.default.temporaryDirectory.appendingPathComponent("form-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: huge) }
            try Data(("csrf=\(token)&merchant=" + String(repeating: "x", count: 300 * 1024)).utf8).write(to: huge)
            let reply = try await curl(port, "/receipts/\(id)", form: "@" + huge.path)
            #expect(reply.status == 413, "\(reply.status): \(reply.body)")
            #expect(reply.body.contains("256 KB"), "\(reply.body)")
        }
    }
}
