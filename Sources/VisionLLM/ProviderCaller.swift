import Foundation
import Logging
import PipelineCore
import Synchronization

/// Runs one receipt's calls to a provider: overall deadline, retries with backoff, one truncation retry.
struct ProviderCaller: Sendable {
    /// Larger replies are refused: a receipt's JSON is a few kilobytes.
    static let maximumReplyBytes = 4 << 20
    let settings: VisionClientSettings
    let logger: Logger

    func readReceipt(_ request: VisionRequest, dialect: some ProviderDialect) async throws -> VisionReply {
        let deadline = ContinuousClock.now + settings.timeout
        let receipt = request.receipt
        let calls = CallCount()
        do {
            return try await withDeadline(settings.timeout) {
                try await callUntilAnswered(request, dialect: dialect, deadline: deadline, calls: calls)
            }
        } catch is DeadlinePassed {
            throw VisionModelError(
                .deadlineExceeded,
                "\(receipt): the \(dialect.providerName) did not answer within \(settings.timeout) "
                    + "(llm.timeout, retries included); raise llm.timeout or check the server", calls: calls.value)
        } catch var error as VisionModelError {
            error.calls = calls.value
            throw error
        }
    }

    private func callUntilAnswered(
        _ request: VisionRequest, dialect: some ProviderDialect, deadline: ContinuousClock.Instant,
        calls count: CallCount
    ) async throws -> VisionReply {
        var usage = TokenUsage()
        var calls = 0
        var failures = 0
        var budget = settings.maxTokens
        var hasRetriedTruncation = false
        let limit = request.callLimit ?? settings.retries + 2
        while true {
            try Task.checkCancellation()
            guard calls < limit else {
                throw VisionModelError(
                    .callBudgetSpent,
                    "\(request.receipt): its \(limit) LLM calls are spent (llm.retries + 1 per receipt over "
                        + "all attempts); the rules draft is kept")
            }
            calls += 1
            count.increment()
            var failure: VisionModelError
            let delay: Duration?
            do {
                let response = try await ProviderTransport.send(
                    dialect.makeHTTPRequest(for: request, maxTokens: budget), maximumBytes: Self.maximumReplyBytes,
                    deadline: deadline)
                if response.status == 200 {
                    let answer = try dialect.answer(from: response.body)
                    usage = usage + answer.usage
                    if answer.isTruncated && !hasRetriedTruncation && calls < limit {
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
                failure = HTTPFailure.classify(
                    status: response.status, detail: dialect.errorDetail(from: response.body),
                    provider: dialect.providerName, receipt: request.receipt, settings: settings)
                delay = RetryDelay.requested(by: response.headers)
            } catch is ProviderTransport.ReplyTooLarge {
                throw VisionModelError(
                    .invalidReply,
                    "\(request.receipt): the \(dialect.providerName) sent more than the "
                        + "\(Self.maximumReplyBytes) bytes a receipt reply can need; check llm.baseURL")
            } catch let error as VisionModelError {
                throw error
            } catch let error as DeadlinePassed {
                throw error
            } catch {
                if Task.isCancelled || error is CancellationError { throw CancellationError() }
                failure = VisionModelError(
                    .network,
                    "\(request.receipt): could not reach the \(dialect.providerName) at "
                        + "\(settings.baseURL.host ?? settings.baseURL.absoluteString): \(error); "
                        + "check llm.baseURL and the network")
                delay = nil
            }
            failure.retryAfter = delay
            guard failure.isRetryable, failures < settings.retries, calls < limit else { throw failure }
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

/// HTTP calls made for one receipt, readable after the calling task was cancelled by the deadline.
final class CallCount: Sendable {
    private let count = Mutex(0)

    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
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
