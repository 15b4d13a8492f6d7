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
    /// Where the attempt failed, recorded in the job's error history.
    public var stage: FailedStage
    /// What went wrong and what to do, for the operator.
    public var message: String

    public init(kind: Kind, stage: FailedStage, message: String) {
        self.kind = kind
        self.stage = stage
        self.message = message
    }

    /// A failure another attempt may cure.
    public static func retryable(stage: FailedStage, _ message: String, after delay: Duration? = nil) -> JobFailure {
        JobFailure(kind: .retryable(after: delay), stage: stage, message: message)
    }

    /// A failure no attempt can cure.
    public static func permanent(stage: FailedStage, _ message: String) -> JobFailure {
        JobFailure(kind: .permanent, stage: stage, message: message)
    }

    /// Classifies any error a handler threw: its own classification when it has one, otherwise retryable.
    public init(classifying error: any Error, stage: FailedStage = .handler) {
        if let convertible = error as? any JobFailureConvertible {
            self = convertible.jobFailure
        } else {
            self = .retryable(stage: stage, String(describing: error))
        }
    }

    public var isPermanent: Bool { kind == .permanent }

    public var jobFailure: JobFailure { self }

    public var description: String { "\(stage.rawValue): \(message)" }
}

/// Where a job's attempt failed, as stored in its error history (`jobs.errors[].stage`): a stage of the receipt
/// pipeline (its `Stage` name), or one of the queue's own steps around the handler.
public enum FailedStage: Sendable, Hashable, RawRepresentable, CaseIterable {
    /// A stage of the receipt pipeline.
    case pipeline(Stage)
    /// The handler threw an error with no classification of its own.
    case handler
    /// The job's writes (its expense, items, timings) were refused when the job was settled.
    case store
    /// The worker holding the job stopped renewing its lease; the queue rescued the job.
    case lease

    public static var allCases: [FailedStage] { Stage.allCases.map(FailedStage.pipeline) + [.handler, .store, .lease] }

    public init?(rawValue: String) {
        guard let stage = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = stage
    }

    public var rawValue: String {
        switch self {
        case .pipeline(let stage): stage.rawValue
        case .handler: "handler"
        case .store: "store"
        case .lease: "lease"
        }
    }
}

/// An error that knows how the queue should treat it.
public protocol JobFailureConvertible: Error {
    var jobFailure: JobFailure { get }
}
