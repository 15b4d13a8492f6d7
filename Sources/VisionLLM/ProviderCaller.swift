import Foundation
import Logging
import PipelineCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs one receipt's calls to a provider: overall deadline, retries with backoff, one truncation retry.
struct ProviderCaller: Sendable {
    /// Larger replies are refused: a receipt's JSON is a few kilobytes.
    static let maximumReplyBytes = 4 << 20
    let settings: VisionClientSettings
    let logger: Logger
    let session: URLSession

    func readReceipt(_ request: VisionRequest, dialect: some ProviderDialect) async throws -> VisionReply {
        let deadline = ContinuousClock.now + settings.timeout
        let receipt = request.receipt
        do {
            return try await withDeadline(settings.timeout) {
                try await callUntilAnswered(request, dialect: dialect, deadline: deadline)
            }
        } catch is DeadlinePassed {
            throw VisionModelError(
                .deadlineExceeded,
                "receipt \(receipt): the \(dialect.providerName) did not answer within \(settings.timeout) "
                    + "(llm.timeout, retries included); raise llm.timeout or check the server")
        }
    }

    private func callUntilAnswered(
        _ request: VisionRequest, dialect: some ProviderDialect, deadline: ContinuousClock.Instant
    ) async throws -> VisionReply {
        var usage = TokenUsage()
        var calls = 0
        var failures = 0
        var budget = settings.maxTokens
        var hasRetriedTruncation = false
        while true {
            try Task.checkCancellation()
            calls += 1
            let failure: VisionModelError
            let delay: Duration?
            do {
                let (body, response) = try await session.data(
                    for: dialect.makeHTTPRequest(for: request, maxTokens: budget))
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                guard body.count <= Self.maximumReplyBytes else {
                    throw VisionModelError(
                        .invalidReply,
                        "receipt \(request.receipt): the \(dialect.providerName) sent \(body.count) bytes, more than "
                            + "the \(Self.maximumReplyBytes) a receipt reply can need; check llm.baseURL")
                }
                if status == 200 {
                    let answer = try dialect.answer(from: body)
                    usage = usage + answer.usage
                    if answer.isTruncated && !hasRetriedTruncation {
                        hasRetriedTruncation = true
                        budget *= 2
                        logger.debug(
                            "llm reply truncated; retrying with a larger budget",
                            metadata: [
                                "receipt": "\(request.receipt)", "max_tokens": "\(budget)",
                            ])
                        continue
                    }
                    return VisionReply(
                        text: answer.text, wasTruncated: answer.isTruncated, usage: usage, calls: calls,
                        model: settings.model)
                }
                let headers = (response as? HTTPURLResponse)?.allHeaderFields ?? [:]
                failure = HTTPFailure.classify(
                    status: status, detail: dialect.errorDetail(from: body), provider: dialect.providerName,
                    receipt: request.receipt, settings: settings)
                delay = RetryDelay.requested(by: headers)
            } catch let error as URLError {
                if error.code == .cancelled || Task.isCancelled { throw CancellationError() }
                failure = VisionModelError(
                    .network,
                    "receipt \(request.receipt): could not reach the \(dialect.providerName) at "
                        + "\(settings.baseURL.host ?? settings.baseURL.absoluteString): \(error.localizedDescription); "
                        + "check llm.baseURL and the network")
                delay = nil
            }
            guard failure.isRetryable, failures < settings.retries else { throw failure }
            failures += 1
            let wait =
                delay ?? RetryDelay.backoff(retry: failures, base: settings.backoffBase, cap: settings.backoffCap)
            guard ContinuousClock.now + wait < deadline else { throw failure }
            logger.debug(
                "llm call failed; retrying",
                metadata: [
                    "receipt": "\(request.receipt)", "attempt": "\(calls)", "error": "\(failure.code.rawValue)",
                    "delay": "\(wait)",
                ])
            try await Task.sleep(for: wait)
        }
    }
}

/// The overall deadline passed.
struct DeadlinePassed: Error {}

/// Runs `body`, cancelling it and throwing ``DeadlinePassed`` when `limit` passes first.
func withDeadline<T: Sendable>(
    _ limit: Duration, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let first = try await group.next(), let value = first else { throw DeadlinePassed() }
        return value
    }
}
