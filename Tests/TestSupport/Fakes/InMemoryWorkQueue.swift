import Foundation
import PipelineCore
import Synchronization

/// The work queue held in this process's memory, with the semantics of the PostgreSQL queue (docs/architecture.md): leases
/// checked by owner, retries by the `RetryPolicy`, dead after the attempt limit, release, rescue of expired leases,
/// wake-ups. For tests of the worker runtime without a database.
public final class InMemoryWorkQueue: WorkQueue {
    /// Result writes run when a completion is settled; one that throws turns the completion into a failure of the
    /// `store` stage, classified like any other failure.
    public typealias Writes = @Sendable () throws -> Void

    /// One job as stored, for tests and operators to look at.
    public struct Job: Sendable, Equatable {
        public let id: Int64
        public let key: String?
        public let receiptID: Int64?
        public let kind: JobKind
        public let priority: Int
        public internal(set) var maxAttempts: Int
        public internal(set) var state: JobState = .ready
        public internal(set) var attempts = 0
        public internal(set) var runAt: ContinuousClock.Instant
        public internal(set) var leaseOwner: UUID?
        public internal(set) var leaseExpiresAt: ContinuousClock.Instant?
        public internal(set) var finishedAt: ContinuousClock.Instant?
        /// Every failed attempt, oldest first.
        public internal(set) var errors: [JobFailure] = []
    }

    private struct State {
        var jobs: [Int64: Job] = [:]
        var nextID: Int64 = 1
        var listeners: [UUID: AsyncStream<Void>.Continuation] = [:]

        func holds(_ id: Int64, owner: UUID) -> Bool {
            jobs[id]?.leaseOwner == owner
        }

        /// Takes `id` off its lease into `state`.
        mutating func endLease(_ id: Int64, state newState: JobState, at now: ContinuousClock.Instant) {
            jobs[id]?.state = newState
            jobs[id]?.leaseOwner = nil
            jobs[id]?.leaseExpiresAt = nil
            if newState == .done || newState == .dead { jobs[id]?.finishedAt = now }
        }
    }

    private let retryPolicy: RetryPolicy
    private let state = Mutex(State())

    /// - Parameter retryPolicy: the backoff and attempt limit applied to failed attempts.
    public init(retryPolicy: RetryPolicy) {
        self.retryPolicy = retryPolicy
    }

    /// Enqueues jobs; a key already queued (or repeated in `jobs`) is skipped. Wakes listeners when anything was
    /// inserted. Returns how many were inserted.
    @discardableResult
    public func enqueue(_ newJobs: [NewJob]) -> Int {
        let now = ContinuousClock.now
        let inserted = state.withLock { state in
            var keys = Set(state.jobs.values.compactMap(\.key))
            var inserted = 0
            for newJob in newJobs {
                if let key = newJob.key, !keys.insert(key).inserted { continue }
                let id = state.nextID
                state.nextID += 1
                state.jobs[id] = Job(
                    id: id, key: newJob.key, receiptID: newJob.receiptID, kind: newJob.kind, priority: newJob.priority,
                    maxAttempts: newJob.maxAttempts, runAt: now)
                inserted += 1
            }
            return inserted
        }
        if inserted > 0 { wakeListeners() }
        return inserted
    }

    /// Every job, by id.
    public var jobs: [Job] {
        state.withLock { $0.jobs.values.sorted { $0.id < $1.id } }
    }

    /// How many jobs are in `jobState`.
    public func count(_ jobState: JobState) -> Int {
        state.withLock { $0.jobs.values.count { $0.state == jobState } }
    }

    public func claim(limit: Int, owner: UUID, lease: Duration) async throws -> [ClaimedJob] {
        guard limit > 0 else { return [] }
        let now = ContinuousClock.now
        return state.withLock { state in
            let due = state.jobs.values
                .filter { $0.state == .ready && $0.runAt <= now }
                .sorted { ($0.priority, $0.runAt, $0.id) < ($1.priority, $1.runAt, $1.id) }
                .prefix(limit)
            return due.map { job in
                var claimed = job
                claimed.state = .running
                claimed.attempts += 1
                claimed.leaseOwner = owner
                claimed.leaseExpiresAt = now + lease
                claimed.maxAttempts = retryPolicy.attemptLimit(enqueuedWith: job.maxAttempts)
                state.jobs[job.id] = claimed
                return ClaimedJob(
                    id: job.id, kind: job.kind, key: job.key, receiptID: job.receiptID, priority: job.priority,
                    attempt: claimed.attempts, maxAttempts: claimed.maxAttempts)
            }
        }
    }

    public func renew(_ ids: [Int64], owner: UUID, lease: Duration) async throws -> Set<Int64> {
        let expiry = ContinuousClock.now + lease
        return state.withLock { state in
            Set(
                ids.filter { id in
                    guard state.holds(id, owner: owner) else { return false }
                    state.jobs[id]?.leaseExpiresAt = expiry
                    return true
                })
        }
    }

    public func settle(_ settlements: [JobSettlement<Writes>], owner: UUID) async throws -> SettlementReport {
        let now = ContinuousClock.now
        let report = state.withLock { state in
            var report = SettlementReport()
            for settlement in settlements {
                let id = settlement.job.id
                guard state.holds(id, owner: owner) else {
                    report.lost.append(id)
                    continue
                }
                switch settlement.outcome {
                case .completed(let writes):
                    if let failure = Self.run(writes) {
                        fail(id, failure, attempt: settlement.job, in: &state, at: now, report: &report)
                    } else {
                        state.endLease(id, state: .done, at: now)
                        report.done.append(id)
                    }
                case .failed(let failure):
                    fail(id, failure, attempt: settlement.job, in: &state, at: now, report: &report)
                case .released:
                    state.endLease(id, state: .ready, at: now)
                    state.jobs[id]?.runAt = now
                    let attempts = state.jobs[id]?.attempts ?? 1
                    state.jobs[id]?.attempts = max(attempts - 1, 0)
                    report.released.append(id)
                }
            }
            return report
        }
        if !report.released.isEmpty || !report.retried.isEmpty { wakeListeners() }
        return report
    }

    public func rescueExpired() async throws -> Int {
        let now = ContinuousClock.now
        let (rescued, requeued) = state.withLock { state in
            let expired = state.jobs.values.filter { job in
                job.state == .running && job.leaseExpiresAt.map { $0 < now } ?? false
            }
            var requeued = 0
            for job in expired {
                let limit = retryPolicy.attemptLimit(enqueuedWith: job.maxAttempts)
                let isDead = job.attempts >= limit
                state.endLease(job.id, state: isDead ? .dead : .ready, at: now)
                state.jobs[job.id]?.maxAttempts = limit
                state.jobs[job.id]?.runAt = now
                state.jobs[job.id]?.errors.append(.retryable(stage: .lease, Self.rescueMessage))
                if !isDead { requeued += 1 }
            }
            return (expired.count, requeued)
        }
        if requeued > 0 { wakeListeners() }
        return rescued
    }

    public func hasPendingWork() async throws -> Bool {
        state.withLock { state in state.jobs.values.contains { $0.state == .ready || $0.state == .running } }
    }

    public func timeUntilNextDueJob() async throws -> Duration? {
        let now = ContinuousClock.now
        let earliest = state.withLock { state in state.jobs.values.filter { $0.state == .ready }.map(\.runAt).min() }
        return earliest.map { max($0 - now, .zero) }
    }

    public func deleteFinished(olderThan age: Duration, batchSize: Int) async throws -> Int {
        let cutoff = ContinuousClock.now - age
        return state.withLock { state in
            let old = state.jobs.values
                .filter { $0.state == .done && $0.finishedAt.map { $0 < cutoff } ?? false }
                .sorted { ($0.finishedAt ?? cutoff) < ($1.finishedAt ?? cutoff) }
                .prefix(batchSize)
            for job in old { state.jobs[job.id] = nil }
            return old.count
        }
    }

    public func listen(_ wake: @escaping @Sendable () async -> Void) async {
        let id = UUID()
        let (hints, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        state.withLock { $0.listeners[id] = continuation }
        await wake()
        for await _ in hints { await wake() }
        _ = state.withLock { $0.listeners.removeValue(forKey: id) }
    }

    // MARK: - Settling

    private static let rescueMessage =
        "the worker holding the lease stopped renewing it (crashed, killed or stuck); the job was rescued"

    /// Runs a completion's writes; a throwing write comes back as the job's failure.
    private static func run(_ writes: Writes?) -> JobFailure? {
        do {
            try writes?()
            return nil
        } catch {
            return JobFailure(classifying: error, stage: .store)
        }
    }

    /// Records a failed attempt: back to ready after the backoff, or dead, as the retry policy decides.
    private func fail(
        _ id: Int64, _ failure: JobFailure, attempt job: ClaimedJob, in state: inout State,
        at now: ContinuousClock.Instant, report: inout SettlementReport
    ) {
        let decision = retryPolicy.decision(
            attempt: job.attempt, maxAttempts: job.maxAttempts, failure: failure, jitter: Double.random(in: 0...1))
        state.jobs[id]?.errors.append(failure)
        report.failures[id] = failure
        switch decision {
        case .dead:
            state.endLease(id, state: .dead, at: now)
            report.dead.append(id)
        case .retry(let delay):
            state.endLease(id, state: .ready, at: now)
            state.jobs[id]?.runAt = now + delay
            report.retried.append(id)
        }
    }

    private func wakeListeners() {
        let listeners = state.withLock { Array($0.listeners.values) }
        for listener in listeners { listener.yield() }
    }
}
