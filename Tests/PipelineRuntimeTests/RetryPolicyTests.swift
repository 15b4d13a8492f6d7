import PipelineCore
import Testing

@Suite("RetryPolicy")
struct RetryPolicyTests {
    let policy = RetryPolicy(base: .seconds(2), cap: .seconds(60))

    @Test(
        "backoff doubles per attempt, jitter spans its upper half, the cap holds",
        arguments: [
            (1, 1.0, 2.0), (2, 2.0, 4.0), (3, 4.0, 8.0), (5, 16.0, 32.0), (6, 30.0, 60.0), (40, 30.0, 60.0),
        ])
    func schedule(attempt: Int, lowest: Double, highest: Double) {
        #expect(policy.backoff(afterAttempt: attempt, jitter: 0) == .seconds(lowest))
        #expect(policy.backoff(afterAttempt: attempt, jitter: 1) == .seconds(highest))
        let middle = policy.backoff(afterAttempt: attempt, jitter: 0.5)
        #expect(middle > .seconds(lowest) && middle < .seconds(highest))
    }

    @Test("a requested delay longer than the backoff wins; a shorter one does not shorten it")
    func requestedDelay() {
        let slowDown = JobFailure.retryable(stage: .pipeline(.llm), "HTTP 429", after: .seconds(90))
        let hurry = JobFailure.retryable(stage: .pipeline(.llm), "HTTP 429", after: .milliseconds(10))
        #expect(
            policy.decision(attempt: 1, maxAttempts: 5, failure: slowDown, jitter: 0) == .retry(after: .seconds(90)))
        #expect(policy.decision(attempt: 1, maxAttempts: 5, failure: hurry, jitter: 0) == .retry(after: .seconds(1)))
    }

    @Test("dead after the last attempt, and at once for permanent failures")
    func dead() {
        let transient = JobFailure.retryable(stage: .pipeline(.llm), "timeout")
        #expect(
            policy.decision(attempt: 4, maxAttempts: 5, failure: transient, jitter: 0) == .retry(after: .seconds(8)))
        #expect(policy.decision(attempt: 5, maxAttempts: 5, failure: transient, jitter: 0) == .dead)
        #expect(
            policy.decision(
                attempt: 1, maxAttempts: 5, failure: .permanent(stage: .pipeline(.decode), "corrupt"), jitter: 0)
                == .dead)
    }

    @Test("errors a handler throws are classified: their own classification, else retryable")
    func classification() {
        struct Unsupported: JobFailureConvertible {
            var jobFailure: JobFailure { .permanent(stage: .pipeline(.decode), "HEIC is not supported") }
        }
        struct Opaque: Error {}
        #expect(JobFailure(classifying: Unsupported()).isPermanent)
        let opaque = JobFailure(classifying: Opaque())
        #expect(!opaque.isPermanent)
        #expect(opaque.stage == .handler)
    }
}
