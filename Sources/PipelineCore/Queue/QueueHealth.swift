/// Queue health for `pipeline stats` and for operators.
public struct QueueHealth: Sendable, Equatable {
    /// Jobs by state (every state present, zero when none).
    public var counts: [JobState: Int]
    /// Ready jobs scheduled for later (retries in backoff); included in `counts[.ready]`.
    public var scheduled: Int
    /// How long the oldest due ready job has waited; nil when none is due.
    public var oldestReadyAge: Duration?
    /// Running jobs whose lease expired (their worker is gone or stuck; the next rescue takes them).
    public var runningPastLease: Int
    /// Jobs not yet dead that have failed at least once.
    public var retried: Int
    /// Dead jobs grouped by their last error's stage, most first.
    public var deadByReason: [DeadReason]

    public init(
        counts: [JobState: Int], scheduled: Int, oldestReadyAge: Duration?, runningPastLease: Int, retried: Int,
        deadByReason: [DeadReason]
    ) {
        self.counts = counts
        self.scheduled = scheduled
        self.oldestReadyAge = oldestReadyAge
        self.runningPastLease = runningPastLease
        self.retried = retried
        self.deadByReason = deadByReason
    }

    /// A group of dead jobs sharing a failing stage.
    public struct DeadReason: Sendable, Equatable {
        /// The stage of the last failed attempt; nil when the job's history names none.
        public var stage: FailedStage?
        public var count: Int
        /// The latest message of that group, as an example.
        public var example: String

        public init(stage: FailedStage?, count: Int, example: String) {
            self.stage = stage
            self.count = count
            self.example = example
        }
    }
}
