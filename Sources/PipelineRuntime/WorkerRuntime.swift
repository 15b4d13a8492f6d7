import Foundation
import Logging
import PipelineCore

/// Runs queued jobs through a handler in one process (docs/architecture.md, "Work queue").
///
/// - `concurrency` slots; claims (one statement, one batch) only for free slots.
/// - Wakes on queue notifications and when the earliest scheduled retry comes due, polls as a fallback, backs off
///   while idle.
/// - A fresh worker id (the lease owner) per run; a heartbeat renews leases, cancels jobs whose lease was lost,
///   rescues expired leases of dead workers and deletes old done jobs.
/// - `requestShutdown()` (SIGTERM/SIGINT): stop claiming, let in-flight jobs finish within the grace period,
///   then release their leases at once and cancel them; a second request stops at once.
/// - Survives database restarts: failing calls back off and retry on fresh connections.
///
/// Structured: every job, the listener, the heartbeat, the settlement committer and the shutdown watcher are
/// child tasks of `run()`, which returns only after all of them have, so a cancelled handler (an OCR call) has
/// returned before the caller tears down what it uses.
public actor WorkerRuntime<Queue: WorkQueue> {
    /// A job handler: do the work, return the result writes to commit with the acknowledgement, or throw a
    /// (classified) failure.
    public typealias Handler = @Sendable (ClaimedJob) async throws -> JobCompletion<Queue.Writes>

    /// This run's lease owner id.
    public nonisolated let workerID = UUID()
    private let queue: Queue
    private let options: WorkerOptions
    private let handler: Handler
    private let onBatch: BatchObserver?
    private let logger: Logger
    private let wakeup = Wakeup()
    private let batcher: SettlementBatcher<Queue>
    private let shutdownRequests: AsyncStream<Void>
    private let shutdownRequester: AsyncStream<Void>.Continuation
    /// Keyed by attempt, not job: a job retried with a short backoff can be claimed again (attempt 2) before the
    /// batcher reports attempt 1 recorded, and the two entries must not replace each other.
    private var inFlight: [AttemptID: InFlightJob] = [:]
    private var shutdown = ShutdownPhase.none
    private var shutdownRequestCount = 0
    private var shutdownRequestedAt: ContinuousClock.Instant?
    private var workMayBeReady = true
    /// Counts wake-up hints, so a hint that arrives while a claim is in flight is not lost.
    private var workHints = 0
    private var summary = WorkerRunSummary()

    /// One claim of a job.
    private struct AttemptID: Hashable {
        let job: Int64
        let attempt: Int

        init(_ job: ClaimedJob) {
            self.job = job.id
            self.attempt = job.attempt
        }
    }

    private struct InFlightJob {
        let job: ClaimedJob
        /// The running attempt, cancelled when the lease is lost or the shutdown grace is over.
        let attempt: Task<JobSettlement<Queue.Writes>.Outcome, Never>
        /// The handler returned; the outcome is being recorded.
        var isSettling = false
    }

    private enum ShutdownPhase: Equatable {
        case none
        case graceful(deadline: ContinuousClock.Instant)
        case immediate
    }

    /// How often old done jobs are deleted.
    private static var cleanupInterval: Duration { .seconds(300) }
    /// How long shutdown waits for outcomes already being recorded.
    private static var settleWaitAtShutdown: Duration { .seconds(2) }
    /// Rows deleted per cleanup statement.
    private static var cleanupBatch: Int { 1000 }
    /// The shortest wait for a scheduled job said to be due, so a job another worker holds locked is not polled
    /// for in a busy loop.
    private static var dueJobRecheck: Duration { .milliseconds(50) }

    /// Told after each committed batch of outcomes: that batch's counts and the run's so far.
    public typealias BatchObserver = @Sendable (_ batch: SettledBatch, _ run: WorkerRunSummary) -> Void

    public init(
        queue: Queue, options: WorkerOptions, logger: Logger, onBatch: BatchObserver? = nil,
        handler: @escaping Handler
    ) {
        self.queue = queue
        self.options = options
        self.onBatch = onBatch
        self.handler = handler
        var logger = logger
        logger[metadataKey: "worker"] = "\(workerID.uuidString.prefix(8).lowercased())"
        self.logger = logger
        self.batcher = SettlementBatcher(queue: queue, owner: workerID, retryWindow: options.lease, logger: logger)
        (shutdownRequests, shutdownRequester) = AsyncStream.makeStream(of: Void.self)
    }

    /// Runs until shutdown is requested, or (with `drain`) nothing is left, or `maxJobs` were done. Returns once
    /// every job handler it started has returned.
    public func run() async -> WorkerRunSummary {
        logger.info("worker \(workerID) started: concurrency \(options.concurrency), lease \(options.lease)")
        await withDiscardingTaskGroup { services in
            services.addTask { [queue] in await queue.listen { await self.noteWork() } }
            services.addTask { [batcher] in await batcher.run { await self.finished($0) } }
            services.addTask { await self.heartbeatLoop() }
            services.addTask { [shutdownRequests] in
                for await _ in shutdownRequests { await self.shutdownRequested() }
            }
            await withDiscardingTaskGroup { slots in
                await claimLoop(&slots)
                await finishInFlight()
            }
            await waitForSettlements()
            services.cancelAll()
        }
        if let shutdownRequestedAt { summary.shutdownTime = .now - shutdownRequestedAt }
        logger.info(
            "worker \(workerID) stopped: \(summary.claimed) claimed, \(summary.done) done, \(summary.retried) retried, \(summary.dead) dead, \(summary.released) released, \(summary.lost) lost"
        )
        return summary
    }

    /// Asks the run to stop: the first request is graceful, the second immediate. Safe from a signal handler.
    public nonisolated func requestShutdown() {
        shutdownRequester.yield()
    }

    // MARK: - Claiming

    private func claimLoop(_ slots: inout DiscardingTaskGroup) async {
        var emptyClaims = 0
        var errorDelay: Duration = .milliseconds(100)
        var nextPoll = ContinuousClock.now + options.pollInterval
        while shutdown == .none {
            if let maxJobs = options.maxJobs, summary.claimed >= maxJobs { return }
            let free = options.concurrency - inFlight.count
            guard free > 0 else {
                // A finished job or a shutdown request signals; the deadline only bounds the wait. (Waiting until a
                // poll time already past would return at once: a busy loop while every slot is taken.)
                await wakeup.wait(until: .now + options.pollInterval)
                continue
            }
            if ContinuousClock.now >= nextPoll { workMayBeReady = true }
            guard workMayBeReady else {
                await wakeup.wait(until: nextPoll)
                continue
            }
            let limit = options.maxJobs.map { min(free, $0 - summary.claimed) } ?? free
            let hintsBeforeClaim = workHints
            let jobs: [ClaimedJob]
            do {
                jobs = try await queue.claim(limit: limit, owner: workerID, lease: options.lease)
                errorDelay = .milliseconds(100)
            } catch {
                logger.warning("claiming jobs failed, retrying in \(errorDelay): \(error)")
                await wakeup.wait(until: .now + errorDelay)
                errorDelay = min(errorDelay * 2, .seconds(5))
                continue
            }
            guard shutdown == .none else {
                await release(jobs)
                return
            }
            for job in jobs { start(job, in: &slots) }
            guard jobs.count < limit else {
                emptyClaims = 0
                continue
            }
            workMayBeReady = workHints != hintsBeforeClaim
            emptyClaims = jobs.isEmpty ? emptyClaims + 1 : 0
            nextPoll = .now + options.idleInterval(afterEmptyClaims: emptyClaims)
            if options.drain, jobs.isEmpty, inFlight.isEmpty, await isQueueEmpty() { return }
            if let dueIn = await timeUntilNextDueJob() {
                nextPoll = min(nextPoll, .now + max(dueIn, Self.dueJobRecheck))
            }
        }
    }

    private func isQueueEmpty() async -> Bool {
        do {
            return try await !queue.hasPendingWork()
        } catch {
            logger.warning("checking for pending work failed: \(error)")
            return false
        }
    }

    /// When the earliest scheduled job (a retry in backoff) comes due; nil when none is ready or the queue did not
    /// answer (the poll still runs).
    private func timeUntilNextDueJob() async -> Duration? {
        do {
            return try await queue.timeUntilNextDueJob()
        } catch {
            logger.warning("asking when the next scheduled job is due failed: \(error)")
            return nil
        }
    }

    private func noteWork() {
        workMayBeReady = true
        workHints += 1
        wakeup.signal()
    }

    // MARK: - Running jobs

    /// Runs the job in a slot: a child task of `slots` that awaits the attempt and hands its outcome on.
    ///
    /// The attempt runs in a task of its own so that it alone can be cancelled (a lost lease, the end of the shutdown
    /// grace); the slot's child task awaits it, so it never outlives `run()`.
    private func start(_ job: ClaimedJob, in slots: inout DiscardingTaskGroup) {
        summary.claimed += 1
        let attempt = Task { [handler] in await Self.attempt(job, with: handler) }
        inFlight[AttemptID(job)] = InFlightJob(job: job, attempt: attempt)
        slots.addTask {
            let outcome = await withTaskCancellationHandler {
                await attempt.value
            } onCancel: {
                attempt.cancel()
            }
            await self.handlerReturned(JobSettlement(job: job, outcome: outcome))
        }
    }

    /// Runs the handler: its writes, its classified failure, or a release when it was cancelled.
    private static func attempt(_ job: ClaimedJob, with handler: Handler) async -> JobSettlement<Queue.Writes>.Outcome {
        do {
            return .completed(try await handler(job).writes)
        } catch {
            return Task.isCancelled ? .released : .failed(JobFailure(classifying: error))
        }
    }

    /// Hands the outcome to the batcher; a job already released at shutdown has nothing left to record.
    private func handlerReturned(_ settlement: JobSettlement<Queue.Writes>) {
        let id = AttemptID(settlement.job)
        guard inFlight[id] != nil else { return }
        inFlight[id]?.isSettling = true
        batcher.submit(settlement)
    }

    /// Frees the slots of a committed batch at once, so the next claim fills them together.
    private func finished(_ batch: [SettlementBatcher<Queue>.Settled]) {
        let before = summary
        defer {
            if let onBatch, summary != before {
                onBatch(
                    SettledBatch(
                        done: summary.done - before.done, retried: summary.retried - before.retried,
                        dead: summary.dead - before.dead),
                    summary)
            }
        }
        for (settlement, settled, failure) in batch where inFlight.removeValue(forKey: AttemptID(settlement.job)) != nil
        {
            switch settled {
            case .done: summary.done += 1
            case .retried: summary.retried += 1
            case .dead:
                summary.dead += 1
                summary.deadJobs.append(WorkerRunSummary.DeadJob(job: settlement.job, failure: failure))
            case .released: summary.released += 1
            case .lost:
                summary.lost += 1
                logger.warning(
                    """
                    job \(settlement.job.id): its lease passed to another worker before this result was recorded; \
                    the result is dropped (the other worker's counts)
                    """)
            case .unrecorded: summary.lost += 1
            }
        }
        if options.drain && inFlight.isEmpty {
            noteWork()
        } else {
            wakeup.signal()
        }
    }

    // MARK: - Heartbeat and maintenance

    private func heartbeatLoop() async {
        var nextCleanup = ContinuousClock.now
        while !Task.isCancelled {
            await renewLeases()
            await rescueExpiredLeases()
            if ContinuousClock.now >= nextCleanup {
                await deleteOldJobs()
                nextCleanup = .now + Self.cleanupInterval
            }
            try? await Task.sleep(for: options.heartbeat)
        }
    }

    private func renewLeases() async {
        let asked = Set(inFlight.keys)
        guard !asked.isEmpty else { return }
        do {
            let held = try await queue.renew(Array(Set(asked.map(\.job))), owner: workerID, lease: options.lease)
            // Only the attempts the renewal asked about: one claimed while it was under way was not, and holds its
            // fresh lease.
            for (id, lost) in inFlight where asked.contains(id) && !held.contains(lost.job.id) && !lost.isSettling {
                logger.warning("lost the lease on job \(lost.job.id) (attempt \(lost.job.attempt)); cancelling it")
                lost.attempt.cancel()
            }
        } catch {
            logger.warning("renewing \(asked.count) lease(s) failed: \(error)")
        }
    }

    private func rescueExpiredLeases() async {
        do {
            let rescued = try await queue.rescueExpired()
            if rescued > 0 {
                logger.notice("rescued \(rescued) job(s) whose worker stopped renewing its lease")
                noteWork()
            }
        } catch {
            logger.warning("rescuing expired leases failed: \(error)")
        }
    }

    private func deleteOldJobs() async {
        do {
            var deleted = 0
            var batch = Self.cleanupBatch
            while batch == Self.cleanupBatch && !Task.isCancelled {
                batch = try await queue.deleteFinished(olderThan: options.retention, batchSize: Self.cleanupBatch)
                deleted += batch
            }
            if deleted > 0 { logger.info("deleted \(deleted) done job(s) past retention") }
        } catch {
            logger.warning("deleting old done jobs failed: \(error)")
        }
    }

    // MARK: - Shutdown

    private func shutdownRequested() {
        shutdownRequestCount += 1
        if shutdownRequestCount == 1 {
            shutdownRequestedAt = .now
            shutdown = .graceful(deadline: .now + options.shutdownGrace)
            logger.notice(
                "stopping: no new claims; \(inFlight.count) job(s) in flight get \(options.shutdownGrace) to finish")
        } else {
            shutdown = .immediate
            logger.notice("stopping now: releasing \(inFlight.count) job(s) in flight")
        }
        wakeup.signal()
    }

    /// Waits for in-flight jobs (up to the grace deadline when shutting down), then releases the rest and cancels
    /// their handlers (the task group around this waits for them to return).
    private func finishInFlight() async {
        while !inFlight.isEmpty {
            switch shutdown {
            case .none:
                await wakeup.wait(until: .now + options.heartbeat)
                continue
            case .graceful(let deadline) where ContinuousClock.now < deadline:
                await wakeup.wait(until: deadline)
                continue
            case .graceful, .immediate:
                break
            }
            break
        }
        let unfinished = inFlight.values.filter { !$0.isSettling }
        guard !unfinished.isEmpty else { return }
        // Released before cancelled, so another worker can take them now, even while their handlers wind down;
        // their own (now lost) settlements are dropped.
        unfinished.forEach { inFlight[AttemptID($0.job)] = nil }
        await release(unfinished.map(\.job))
        unfinished.forEach { $0.attempt.cancel() }
        logger.notice("waiting for \(unfinished.count) cancelled job(s) to stop")
    }

    /// Outcomes already being recorded commit in milliseconds: give them a moment rather than a lease.
    private func waitForSettlements() async {
        let settleDeadline = ContinuousClock.now + Self.settleWaitAtShutdown
        while !inFlight.isEmpty && ContinuousClock.now < settleDeadline {
            await wakeup.wait(until: settleDeadline)
        }
    }

    /// Gives jobs back at once so another worker takes them now, not after the lease.
    private func release(_ jobs: [ClaimedJob]) async {
        guard !jobs.isEmpty else { return }
        do {
            let report = try await queue.settle(
                jobs.map { JobSettlement(job: $0, outcome: .released) }, owner: workerID)
            summary.released += report.released.count
            logger.notice("released \(report.released.count) unfinished job(s) for other workers")
        } catch {
            logger.error("releasing \(jobs.count) job(s) failed: \(error); they will be rescued after their lease")
        }
    }
}
