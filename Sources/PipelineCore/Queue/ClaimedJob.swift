/// A job this worker holds a lease on, as the claim returned it.
public struct ClaimedJob: Sendable, Equatable, Identifiable {
    public let id: Int64
    /// What the job does.
    public let kind: JobKind
    /// The idempotency key (the image SHA-256 for receipts).
    public let key: String?
    public let receiptID: Int64?
    public let priority: Int
    /// This run's attempt number, counting from 1 (claims and rescues both count).
    public let attempt: Int
    public let maxAttempts: Int

    public init(
        id: Int64, kind: JobKind, key: String?, receiptID: Int64?, priority: Int, attempt: Int, maxAttempts: Int
    ) {
        self.id = id
        self.kind = kind
        self.key = key
        self.receiptID = receiptID
        self.priority = priority
        self.attempt = attempt
        self.maxAttempts = maxAttempts
    }
}

/// A job to enqueue.
public struct NewJob: Sendable, Equatable {
    /// Idempotency key: enqueueing the same key twice makes one job.
    public var key: String?
    public var receiptID: Int64?
    public var kind: JobKind
    /// Lower runs first.
    public var priority: Int
    public var maxAttempts: Int

    /// The attempts a job is enqueued with when its enqueuer names none; a worker's configured `queue.maxAttempts`
    /// applies over it when it settles the job (`RetryPolicy.maxAttempts`).
    public static let defaultMaxAttempts = 5

    public init(
        key: String?, receiptID: Int64? = nil, kind: JobKind = .receipt, priority: Int = 0,
        maxAttempts: Int = defaultMaxAttempts
    ) {
        self.key = key
        self.receiptID = receiptID
        self.kind = kind
        self.priority = priority
        self.maxAttempts = maxAttempts
    }
}

/// What a job does, by its name in `jobs.kind`.
public enum JobKind: String, Sendable, CaseIterable, Equatable {
    /// Run the receipt pipeline on a newly ingested receipt and commit its expense.
    case receipt
    /// Run it again on a stored receipt (`pipeline reprocess`) and rewrite its expense in place, keeping what a
    /// person corrected.
    case reprocess
}

/// A job's state as stored.
public enum JobState: String, Sendable, CaseIterable, Equatable {
    case ready, running, done, dead
}
