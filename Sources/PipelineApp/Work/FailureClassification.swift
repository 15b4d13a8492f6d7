import PipelineCore
import PostgresStore

// How the queue treats the failures of the adapters: bad images are permanent, database hiccups are retried.

extension ImageError: JobFailureConvertible {
    public var jobFailure: JobFailure {
        isRetryable
            ? .retryable(stage: stage.rawValue, description)
            : .permanent(stage: stage.rawValue, description)
    }
}

extension PostgresError: JobFailureConvertible {
    public var jobFailure: JobFailure {
        isTransient
            ? .retryable(stage: "database", description)
            : .permanent(stage: "database", "\(description); fix the database or schema, then `pipeline retry`")
    }
}
