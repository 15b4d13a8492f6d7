import PipelineCore

/// How a worker process runs: slots, lease timing, polling, shutdown, and when to stop on its own.
public struct WorkerOptions: Sendable, Equatable {
    /// Jobs run at once; the worker claims only for free slots.
    public var concurrency: Int
    /// How long a claim is leased before another worker may rescue it.
    public var lease: Duration
    /// How often leases are renewed (well inside `lease`) and expired leases rescued.
    public var heartbeat: Duration
    /// The poll interval when no notification arrives; idle workers back off to 4× this.
    public var pollInterval: Duration
    /// After SIGTERM/SIGINT, how long in-flight jobs may finish before they are cancelled and released.
    public var shutdownGrace: Duration
    /// Done jobs older than this are deleted (in small batches) by the heartbeat's maintenance.
    public var retention: Duration
    /// Exit once nothing is ready or running (`pipeline work --drain`).
    public var drain: Bool
    /// Exit after claiming this many jobs (and finishing them).
    public var maxJobs: Int?

    public init(
        concurrency: Int, lease: Duration, heartbeat: Duration, pollInterval: Duration, shutdownGrace: Duration,
        retention: Duration, drain: Bool = false, maxJobs: Int? = nil
    ) {
        self.concurrency = concurrency
        self.lease = lease
        self.heartbeat = heartbeat
        self.pollInterval = pollInterval
        self.shutdownGrace = shutdownGrace
        self.retention = retention
        self.drain = drain
        self.maxJobs = maxJobs
    }

    /// The wait before the next poll after `idleStreak` empty claims in a row: doubling up to 4× the interval.
    func idleInterval(afterEmptyClaims idleStreak: Int) -> Duration {
        pollInterval * (1 << min(max(idleStreak - 1, 0), 2))
    }
}

/// What one committed batch of outcomes settled.
public struct SettledBatch: Sendable, Equatable {
    public var done: Int
    public var retried: Int
    public var dead: Int
}

/// What one worker run did.
public struct WorkerRunSummary: Sendable, Equatable {
    public var claimed = 0
    public var done = 0
    public var retried = 0
    public var dead = 0
    /// Given back unfinished at shutdown.
    public var released = 0
    /// Settled after the lease was lost (another worker owns the job now): nothing was recorded.
    public var lost = 0
    /// From the first shutdown request to the end of the run, when one was requested.
    public var shutdownTime: Duration?
    /// The jobs this run settled as dead, in the order they died.
    public var deadJobs: [DeadJob] = []

    public init() {}

    /// A job that went dead in this run, with the failure that ended it.
    public struct DeadJob: Sendable, Equatable {
        public var job: ClaimedJob
        /// The last attempt's failure; nil when the queue did not report it.
        public var failure: JobFailure?

        public init(job: ClaimedJob, failure: JobFailure?) {
            self.job = job
            self.failure = failure
        }
    }
}
