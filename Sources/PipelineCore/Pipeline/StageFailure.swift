import Foundation

/// Why one stage of one receipt failed, and what follows: the one place that classifies pipeline errors.
///
/// It names the receipt, the stage, what was wrong and what to do, and decides whether another attempt may cure
/// it (`isRetryable`), whether this attempt was the last (`isFinal`), and how loudly to log it (`severity`).
/// The queue records it as a `JobFailure`.
public struct StageFailure: Error, Sendable, Equatable, CustomStringConvertible, JobFailureConvertible {
    /// How a failure is treated by the queue.
    public enum Disposition: Sendable, Equatable {
        /// Another attempt may succeed; `after` is a delay the failure asks for (e.g. HTTP `Retry-After`).
        case retryable(after: Duration?)
        /// No attempt can succeed: the job is dead at once.
        case permanent
    }

    /// How loudly an operator hears of it.
    public enum Severity: Sendable, Equatable {
        /// Another attempt follows.
        case warning
        /// The receipt needs a person: the job is dead.
        case error
    }

    public var stage: Stage
    /// The receipt as the operator knows it: `receipt 12 (IMG_0042.jpg)`.
    public var receipt: String
    /// What was wrong and what to do about it.
    public var message: String
    public var disposition: Disposition
    /// True when no attempt follows this one: the failure is permanent or the attempts are used up.
    public var isFinal: Bool

    public init(stage: Stage, receipt: String, message: String, disposition: Disposition, isFinal: Bool) {
        self.stage = stage
        self.receipt = receipt
        self.message = message
        self.disposition = disposition
        self.isFinal = isFinal || disposition == .permanent
    }

    /// Classifies an error thrown while `stage` ran: an `ImageError` keeps its own stage and knows whether it is
    /// permanent; a `VisionModelError` knows whether it is retryable; anything else (a database hiccup) is
    /// retryable, bounded by the job's attempts.
    public init(classifying error: any Error, stage: Stage, receipt: String, attempt: JobAttempt) {
        if let failure = error as? StageFailure {
            self = failure
            return
        }
        var stage = stage
        let message: String
        let isRetryable: Bool
        var retryAfter: Duration?
        switch error {
        case let image as ImageError:
            stage = image.stage
            message = "\(image.problem). \(image.remedy)"
            isRetryable = image.isRetryable
        case let vision as VisionModelError:
            message = vision.message
            isRetryable = vision.isRetryable
            retryAfter = vision.retryAfter
        default:
            message = String(describing: error)
            isRetryable = true
        }
        self.init(
            stage: stage, receipt: receipt, message: message,
            disposition: isRetryable ? .retryable(after: retryAfter) : .permanent, isFinal: attempt.isLast)
    }

    public var isRetryable: Bool { disposition != .permanent }

    public var severity: Severity { isFinal ? .error : .warning }

    /// What happens next, in words: retried, or dead with the command that re-queues it.
    public var outcome: String {
        switch (disposition, isFinal) {
        case (.permanent, _):
            "the job is dead: no attempt can succeed with this input"
        case (.retryable, true):
            "the job is dead after its last attempt; fix the cause, then `pipeline retry --all` re-queues it"
        case (.retryable, false):
            "the job will be retried"
        }
    }

    /// `receipt 12 (IMG_0042.jpg): ocr: … — the job will be retried`.
    public var description: String { "\(receipt): \(stage.rawValue): \(message) — \(outcome)" }

    /// The queue's record of it: the stage, and the receipt, message and outcome in words.
    public var jobFailure: JobFailure {
        let text = "\(receipt): \(message) — \(outcome)"
        return switch disposition {
        case .retryable(let delay): .retryable(stage: .pipeline(stage), text, after: delay)
        case .permanent: .permanent(stage: .pipeline(stage), text)
        }
    }
}

/// Which attempt of its job a run is.
public struct JobAttempt: Sendable, Equatable {
    /// Counting from 1.
    public var number: Int
    public var maxAttempts: Int

    public init(number: Int, maxAttempts: Int) {
        self.number = number
        self.maxAttempts = maxAttempts
    }

    /// One attempt with nothing after it (the bench).
    public static var only: JobAttempt { JobAttempt(number: 1, maxAttempts: 1) }

    /// True when no attempt follows this one.
    public var isLast: Bool { number >= maxAttempts }
}
