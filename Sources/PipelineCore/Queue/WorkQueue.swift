import Foundation

/// The work queue port the worker runtime drives (docs/architecture.md). `PostgresWorkQueue` is the driver.
///
/// Every call that changes a job checks the caller's lease (`owner`), so a worker that lost a lease
/// (a late heartbeat, a rescue) can never settle that job: a live job is never completed twice.
public protocol WorkQueue: Sendable {
    /// The caller's result writes a completion carries, committed with the job's acknowledgement.
    associatedtype Writes: Sendable

    /// Claims up to `limit` due jobs in one statement, leasing them to `owner` for `lease`.
    func claim(limit: Int, owner: UUID, lease: Duration) async throws -> [ClaimedJob]

    /// Extends the leases `owner` holds on `ids`; returns the ids still held (the others were lost).
    func renew(_ ids: [Int64], owner: UUID, lease: Duration) async throws -> Set<Int64>

    /// Settles finished attempts in one transaction: completions with their writes, failures (retry or dead),
    /// releases. Settlements whose lease `owner` no longer holds change nothing and come back as `lost`.
    func settle(_ settlements: [JobSettlement<Writes>], owner: UUID) async throws -> SettlementReport

    /// Returns expired leases to `ready` (or `dead` when out of attempts); live leases are never touched.
    func rescueExpired() async throws -> Int

    /// True while any job is ready (due or scheduled) or running anywhere: `drain` waits for it.
    func hasPendingWork() async throws -> Bool

    /// How long until the earliest scheduled ready job (a retry in backoff) comes due: `.zero` when one is due
    /// now, nil when none is ready. Idle workers wait at most this long, so retries run on time.
    func timeUntilNextDueJob() async throws -> Duration?

    /// Deletes up to `batchSize` done jobs finished longer ago than `age`; returns how many it deleted.
    func deleteFinished(olderThan age: Duration, batchSize: Int) async throws -> Int

    /// Calls `wake` for every wake-up hint (new work was enqueued) until the calling task is cancelled, then
    /// returns. A hint may be lost: callers still poll.
    func listen(_ wake: @escaping @Sendable () async -> Void) async
}

/// What a handler returns for a job it finished: the result writes to commit with the acknowledgement.
public struct JobCompletion<Writes: Sendable>: Sendable {
    /// Run in the transaction that marks the job done; nil when the job has nothing to write.
    public var writes: Writes?

    public init(writes: Writes?) {
        self.writes = writes
    }

    /// A completion with nothing to write.
    public static var empty: JobCompletion { JobCompletion(writes: nil) }
}

/// One finished attempt to record.
public struct JobSettlement<Writes: Sendable>: Sendable {
    public enum Outcome: Sendable {
        /// Done; the writes commit with it (a write that throws turns this into a failure).
        case completed(Writes?)
        /// Failed: retried with backoff or dead, by the queue's retry policy.
        case failed(JobFailure)
        /// Given back unfinished (shutdown): ready again at once, the attempt not counted.
        case released
    }

    public let job: ClaimedJob
    public let outcome: Outcome

    public init(job: ClaimedJob, outcome: Outcome) {
        self.job = job
        self.outcome = outcome
    }
}

/// What a `settle` call did, by job id.
public struct SettlementReport: Sendable, Equatable {
    public var done: [Int64] = []
    public var retried: [Int64] = []
    public var dead: [Int64] = []
    public var released: [Int64] = []
    /// The lease was no longer held: nothing changed for these.
    public var lost: [Int64] = []
    /// The failure recorded for each retried or dead job (a completion whose writes failed included).
    public var failures: [Int64: JobFailure] = [:]

    public init() {}
}
