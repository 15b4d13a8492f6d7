import Foundation

/// What happens to a job after a failed attempt.
public enum RetryDecision: Sendable, Equatable {
    /// Back to `ready`, due after this delay.
    case retry(after: Duration)
    /// To `dead`, with its error history kept.
    case dead
}

/// Exponential backoff with jitter and a cap, honouring a delay the failure asks for.
///
/// A pure function of the attempt, the failure and a jitter value, so the schedule is testable.
public struct RetryPolicy: Sendable, Equatable {
    /// The delay before the second attempt (before jitter).
    public var base: Duration
    /// No computed delay exceeds this (a requested `Retry-After` may).
    public var cap: Duration
    /// The configured attempt limit (`queue.maxAttempts`), applied when a job is settled, rescued or claimed, so
    /// changing it takes effect for jobs already queued; nil keeps the limit each job was enqueued with.
    public var maxAttempts: Int?

    public init(base: Duration, cap: Duration, maxAttempts: Int? = nil) {
        self.base = base
        self.cap = cap
        self.maxAttempts = maxAttempts
    }

    /// The attempt limit that applies to a job enqueued with `enqueuedLimit`.
    public func attemptLimit(enqueuedWith enqueuedLimit: Int) -> Int {
        maxAttempts ?? enqueuedLimit
    }

    /// The delay after failed attempt `attempt` (from 1): `min(cap, base · 2^(attempt−1))`, of which the upper
    /// half is scaled by `jitter` (0…1), so retries of jobs that failed together spread out.
    public func backoff(afterAttempt attempt: Int, jitter: Double) -> Duration {
        let exponent = Double(max(0, min(attempt - 1, 62)))
        let ceiling = min(cap.seconds, base.seconds * pow(2, exponent))
        let spread = min(max(jitter, 0), 1)
        return .seconds(ceiling / 2 + ceiling / 2 * spread)
    }

    /// Retry or dead: dead for permanent failures and once `attempt` reaches the attempt limit (the configured
    /// one, else the job's own `maxAttempts`); otherwise the backoff, or the requested delay when that is longer.
    public func decision(attempt: Int, maxAttempts: Int, failure: JobFailure, jitter: Double) -> RetryDecision {
        switch failure.kind {
        case .permanent:
            return .dead
        case .retryable(let requested):
            guard attempt < attemptLimit(enqueuedWith: maxAttempts) else { return .dead }
            let computed = backoff(afterAttempt: attempt, jitter: jitter)
            return .retry(after: max(computed, requested ?? .zero))
        }
    }

}
