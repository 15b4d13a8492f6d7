import PipelineCore

// How the queue treats image failures: bad images are permanent, timeouts retried. Other errors (the database's
// among them) are retryable by default, bounded by queue.maxAttempts.

extension ImageError: JobFailureConvertible {
    public var jobFailure: JobFailure {
        isRetryable
            ? .retryable(stage: stage.rawValue, description)
            : .permanent(stage: stage.rawValue, description)
    }
}
