/// Why a job's attempt failed, classified for the queue: retry later, or dead at once.
///
/// Handlers throw it (or an error conforming to `JobFailureConvertible`); any other error counts as retryable,
/// so `max_attempts` still bounds it. Validation problems are not failures: the caller commits a review result.
public struct JobFailure: Error, Sendable, Equatable, CustomStringConvertible, JobFailureConvertible {
    public enum Kind: Sendable, Equatable {
        /// Worth another attempt; `after` is a delay the failure asks for (e.g. HTTP `Retry-After`).
        case retryable(after: Duration?)
        /// No attempt can succeed (unsupported or corrupt input): the job goes to `dead` at once.
        case permanent
    }

    public var kind: Kind
    /// The stage that failed (`ocr`, `llm`, `store`, …), recorded in the job's error history.
    public var stage: String
    /// What went wrong and what to do, for the operator.
    public var message: String

    public init(kind: Kind, stage: String, message: String) {
        self.kind = kind
        self.stage = stage
        self.message = message
    }

    /// A failure another attempt may cure.
    public static func retryable(stage: String, _ message: String, after delay: Duration? = nil) -> JobFailure {
        JobFailure(kind: .retryable(after: delay), stage: stage, message: message)
    }

    /// A failure no attempt can cure.
    public static func permanent(stage: String, _ message: String) -> JobFailure {
        JobFailure(kind: .permanent, stage: stage, message: message)
    }

    /// Classifies any error a handler threw: its own classification when it has one, otherwise retryable.
    public init(classifying error: any Error, stage: String = "handler") {
        if let convertible = error as? any JobFailureConvertible {
            self = convertible.jobFailure
        } else {
            self = .retryable(stage: stage, String(describing: error))
        }
    }

    public var isPermanent: Bool { kind == .permanent }

    public var jobFailure: JobFailure { self }

    public var description: String { "\(stage): \(message)" }
}

/// An error that knows how the queue should treat it.
public protocol JobFailureConvertible: Error {
    var jobFailure: JobFailure { get }
}
