import Foundation
import Logging
import PipelineCore
import PipelineRuntime
import Synchronization
import TestSupport
import Testing

/// The worker runtime's slots, retries and shutdown on the in-memory queue: no database, milliseconds a test.
@Suite("WorkerRuntime on the in-memory queue", .timeLimit(.minutes(1)))
struct InMemoryRuntimeTests {
    private typealias Runtime = WorkerRuntime<InMemoryWorkQueue>

    private func options(
        concurrency: Int = 3, lease: Duration = .seconds(30), heartbeat: Duration = .seconds(5),
        poll: Duration = .milliseconds(50), grace: Duration = .seconds(5), drain: Bool = true
    ) -> WorkerOptions {
        WorkerOptions(
            concurrency: concurrency, lease: lease, heartbeat: heartbeat, pollInterval: poll, shutdownGrace: grace,
            retention: .seconds(86_400), drain: drain)
    }

    private func queue(
        _ count: Int, maxAttempts: Int = 5,
        policy: RetryPolicy = RetryPolicy(base: .milliseconds(10), cap: .milliseconds(20))
    ) -> InMemoryWorkQueue {
        let queue = InMemoryWorkQueue(retryPolicy: policy)
        queue.enqueue((0..<count).map { NewJob(key: "job-\($0)", maxAttempts: maxAttempts) })
        return queue
    }

    @Test("completions are done once, a retryable failure is retried, a permanent one is dead and listed")
    func handlerOutcomes() async throws {
        let queue = queue(20)
        queue.enqueue([NewJob(key: "flaky"), NewJob(key: "broken")])
        let runs = Mutex([String: Int]())
        let runtime = Runtime(queue: queue, options: options(), logger: Logger(label: "test")) { job in
            let attempt = runs.withLock { runs in
                runs[job.key ?? "", default: 0] += 1
                return runs[job.key ?? ""] ?? 0
            }
            switch job.key {
            case "flaky" where attempt == 1: throw JobFailure.retryable(stage: .pipeline(.llm), "HTTP 503")
            case "broken": throw JobFailure.permanent(stage: .pipeline(.decode), "not an image")
            default: return .empty
            }
        }
        let summary = await runtime.run()
        let seen = runs.withLock { $0 }
        #expect(summary.claimed == 23)
        #expect(summary.done == 21)
        #expect(summary.retried == 1)
        #expect(summary.dead == 1)
        #expect(summary.deadJobs.map(\.job.key) == ["broken"])
        #expect(summary.deadJobs.first?.failure == .permanent(stage: .pipeline(.decode), "not an image"))
        #expect(seen.filter { $0.key.hasPrefix("job") }.allSatisfy { $0.value == 1 })
        #expect(seen["flaky"] == 2)
        #expect(queue.count(.done) == 21)
        #expect(queue.count(.dead) == 1)
    }

    @Test("never more handlers at once than slots, and every slot is used")
    func slots() async throws {
        let queue = queue(40)
        let running = Mutex((now: 0, most: 0))
        let runtime = Runtime(queue: queue, options: options(concurrency: 4), logger: Logger(label: "test")) { _ in
            running.withLock {
                $0.now += 1
                $0.most = max($0.most, $0.now)
            }
            try await Task.sleep(for: .milliseconds(5))
            running.withLock { $0.now -= 1 }
            return .empty
        }
        let summary = await runtime.run()
        #expect(summary.done == 40)
        #expect(running.withLock { $0.most } == 4)
        #expect(queue.count(.done) == 40)
    }

    @Test("a graceful stop lets running jobs finish and claims nothing more")
    func gracefulShutdown() async throws {
        let queue = queue(6)
        let started = Mutex(0)
        let runtime = Runtime(
            queue: queue, options: options(concurrency: 2, drain: false), logger: Logger(label: "test")
        ) { _ in
            started.withLock { $0 += 1 }
            try await Task.sleep(for: .milliseconds(300))
            return .empty
        }
        async let summary = runtime.run()
        try await waitUntil("two jobs run") { started.withLock { $0 } == 2 }
        runtime.requestShutdown()
        let finished = await summary
        #expect(finished.done == 2)
        #expect(finished.released == 0)
        #expect(started.withLock { $0 } == 2)
        #expect(queue.count(.ready) == 4)
        #expect(queue.jobs.filter { $0.state == .ready }.allSatisfy { $0.attempts == 0 && $0.leaseOwner == nil })
    }

    @Test("past the grace period jobs are released and cancelled, and run() returns only after their handlers did")
    func cancelledHandlersAreAwaited() async throws {
        let queue = queue(2)
        let returned = Mutex(0)
        let runtime = Runtime(
            queue: queue, options: options(concurrency: 2, grace: .milliseconds(50), drain: false),
            logger: Logger(label: "test")
        ) { _ in
            // Like an OCR call: notices the cancellation, then takes a while to wind down.
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            usleep(200_000)
            returned.withLock { $0 += 1 }
            throw CancellationError()
        }
        async let summary = runtime.run()
        try await waitUntil("both jobs run") { queue.count(.running) == 2 }
        runtime.requestShutdown()
        let finished = await summary
        #expect(returned.withLock { $0 } == 2, "run() returned while cancelled handlers were still running")
        #expect(finished.released == 2)
        #expect(queue.count(.ready) == 2)
        #expect(queue.jobs.allSatisfy { $0.attempts == 0 && $0.leaseOwner == nil })
    }

    @Test("a second stop request does not wait out the grace period")
    func secondRequestStopsAtOnce() async throws {
        let queue = queue(2)
        let runtime = Runtime(
            queue: queue, options: options(concurrency: 2, grace: .seconds(120), drain: false),
            logger: Logger(label: "test")
        ) { _ in
            try await Task.sleep(for: .seconds(60))
            return .empty
        }
        async let summary = runtime.run()
        try await waitUntil("both jobs run") { queue.count(.running) == 2 }
        runtime.requestShutdown()
        runtime.requestShutdown()
        let finished = await summary
        #expect(finished.released == 2)
        #expect(finished.shutdownTime.map { $0 < .seconds(30) } == true)
        #expect(queue.count(.ready) == 2)
    }

    @Test("a lost lease cancels the job; its late outcome changes nothing and the job runs again")
    func lostLease() async throws {
        let queue = queue(1)
        let attempts = Mutex([Int]())
        let runtime = Runtime(
            queue: queue,
            options: options(concurrency: 1, lease: .milliseconds(100), heartbeat: .milliseconds(300)),
            logger: Logger(label: "test")
        ) { job in
            attempts.withLock { $0.append(job.attempt) }
            guard job.attempt == 1 else { return .empty }
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            throw CancellationError()
        }
        async let summary = runtime.run()
        // The first heartbeat renewed the lease; it expires before the next one, and another worker rescues it.
        try await waitUntil("the first attempt runs") { queue.count(.running) == 1 }
        try await Task.sleep(for: .milliseconds(150))
        #expect(try await queue.rescueExpired() == 1)
        let finished = await summary
        #expect(finished.lost == 1)
        #expect(finished.done == 1)
        #expect(attempts.withLock { $0 } == [1, 2])
        #expect(queue.jobs.first?.errors.map(\.stage) == [.lease])
    }

    @Test("a job claimed while a lease renewal is under way is not taken for one whose lease was lost")
    func aJobClaimedDuringARenewalKeepsRunning() async throws {
        // The renewal asks about the first job and answers 400 ms later; by then that job is done and the second one
        // runs, which the renewal was not asked about.
        let queue = SlowQueue(queue(2), renewal: .milliseconds(400))
        let attempts = Mutex([String: [Int]]())
        let runtime = WorkerRuntime(
            queue: queue,
            options: options(concurrency: 1, lease: .seconds(30), heartbeat: .milliseconds(50)),
            logger: Logger(label: "test")
        ) { job in
            attempts.withLock { $0[job.key ?? "", default: []].append(job.attempt) }
            try await Task.sleep(for: job.key == "job-0" ? .milliseconds(150) : .milliseconds(1000))
            return .empty
        }
        let summary = await runtime.run(stoppingAfter: .seconds(20))
        #expect(attempts.withLock { $0 } == ["job-0": [1], "job-1": [1]])
        #expect(summary.done == 2)
        #expect(summary.released == 0 && summary.lost == 0)
    }

    @Test("the configured attempt limit applies to jobs enqueued with another one")
    func configuredAttemptLimit() async throws {
        let policy = RetryPolicy(base: .milliseconds(5), cap: .milliseconds(5), maxAttempts: 2)
        let queue = queue(1, maxAttempts: 5, policy: policy)
        let runtime = Runtime(queue: queue, options: options(), logger: Logger(label: "test")) { _ in
            throw JobFailure.retryable(stage: .pipeline(.llm), "HTTP 503")
        }
        let summary = await runtime.run()
        #expect(summary.claimed == 2)
        #expect(summary.dead == 1)
        #expect(queue.jobs.first?.maxAttempts == 2)
        #expect(queue.jobs.first?.attempts == 2)
    }

    @Test("a scheduled retry runs when it comes due, not at the next idle poll")
    func scheduledRetryWakesTheWorker() async throws {
        let queue = queue(1, maxAttempts: 3, policy: RetryPolicy(base: .milliseconds(200), cap: .milliseconds(200)))
        let attemptTimes = Mutex([ContinuousClock.Instant]())
        let runtime = Runtime(
            queue: queue, options: options(concurrency: 1, poll: .seconds(30)), logger: Logger(label: "test")
        ) { _ in
            attemptTimes.withLock { $0.append(.now) }
            throw JobFailure.retryable(stage: .pipeline(.llm), "HTTP 503")
        }
        // Waiting for the idle poll would take 30 s per retry: stop the run long before that.
        let finished = await runtime.run(stoppingAfter: .seconds(10))
        let times = attemptTimes.withLock { $0 }
        #expect(finished.dead == 1)
        #expect(times.count == 3)
        for (earlier, later) in zip(times, times.dropFirst()) {
            // Due 100–200 ms after the failure (jitter); a poll-bound retry would come 30 s later.
            #expect(later - earlier < .seconds(3))
        }
    }

    @Test("a retry claimed again before its first attempt's settlement is acknowledged runs once and is counted once")
    func retryClaimedBeforeTheFirstSettlementIsAcknowledged() async throws {
        // The first settlement commits at once but is acknowledged 500 ms later (a slow reply); the retry is due
        // after 10–20 ms, so a free slot claims attempt 2 while attempt 1 is still being recorded.
        let queue = SlowQueue(queue(1), firstAcknowledgement: .milliseconds(500))
        let attempts = Mutex([Int]())
        let runtime = WorkerRuntime(
            queue: queue,
            options: options(concurrency: 2, lease: .seconds(1), heartbeat: .milliseconds(200)),
            logger: Logger(label: "test")
        ) { job in
            attempts.withLock { $0.append(job.attempt) }
            guard job.attempt > 1 else { throw JobFailure.retryable(stage: .pipeline(.llm), "HTTP 503") }
            // Still running when attempt 1's acknowledgement arrives, and longer than one lease: only renewed
            // leases keep it.
            try await Task.sleep(for: .milliseconds(1500))
            return .empty
        }
        let summary = await runtime.run(stoppingAfter: .seconds(20))
        #expect(attempts.withLock { $0 } == [1, 2])
        #expect(summary.retried == 1)
        #expect(summary.done == 1)
        #expect(summary.lost == 0)
        #expect(queue.base.count(.done) == 1)
    }

    @Test("in-memory queue: leases are checked by owner; release undoes the attempt; rescue ends out-of-attempt jobs")
    func queueSemantics() async throws {
        let queue = queue(2, maxAttempts: 1)
        let (owner, stranger) = (UUID(), UUID())
        let claimed = try await queue.claim(limit: 5, owner: owner, lease: .milliseconds(20))
        #expect(claimed.count == 2)
        #expect(try await queue.claim(limit: 5, owner: stranger, lease: .seconds(1)).isEmpty)
        let foreign = try await queue.settle(
            [JobSettlement(job: claimed[0], outcome: .completed(nil))], owner: stranger)
        #expect(foreign.lost == [claimed[0].id])
        #expect(try await queue.renew(claimed.map(\.id), owner: stranger, lease: .seconds(1)).isEmpty)
        let released = try await queue.settle([JobSettlement(job: claimed[0], outcome: .released)], owner: owner)
        #expect(released.released == [claimed[0].id])
        #expect(queue.jobs[0].state == .ready && queue.jobs[0].attempts == 0)
        try await Task.sleep(for: .milliseconds(40))
        #expect(try await queue.rescueExpired() == 1)
        #expect(queue.jobs[1].state == .dead)
        #expect(try await queue.timeUntilNextDueJob() == .zero)
        let writes: InMemoryWorkQueue.Writes = { throw JobFailure.permanent(stage: .store, "constraint violated") }
        let again = try #require(try await queue.claim(limit: 1, owner: owner, lease: .seconds(1)).first)
        let failedWrite = try await queue.settle([JobSettlement(job: again, outcome: .completed(writes))], owner: owner)
        #expect(failedWrite.dead == [again.id])
        #expect(failedWrite.failures[again.id]?.stage == .store)
        #expect(try await queue.hasPendingWork() == false)
        #expect(try await queue.timeUntilNextDueJob() == nil)
    }
}

/// Forwards to an in-memory queue, slowly where asked: the first `settle` commits, then returns only after
/// `firstAcknowledgement`; every `renew` waits `renewal` before it renews.
private final class SlowQueue: WorkQueue {
    let base: InMemoryWorkQueue
    private let firstAcknowledgement: Duration
    private let renewal: Duration
    private let settled = Atomic<Bool>(false)

    init(_ base: InMemoryWorkQueue, firstAcknowledgement: Duration = .zero, renewal: Duration = .zero) {
        self.base = base
        self.firstAcknowledgement = firstAcknowledgement
        self.renewal = renewal
    }

    func settle(
        _ settlements: [JobSettlement<InMemoryWorkQueue.Writes>], owner: UUID
    ) async throws -> SettlementReport {
        let report = try await base.settle(settlements, owner: owner)
        if !settled.exchange(true, ordering: .relaxed) { try await Task.sleep(for: firstAcknowledgement) }
        return report
    }

    func claim(limit: Int, owner: UUID, lease: Duration) async throws -> [ClaimedJob] {
        try await base.claim(limit: limit, owner: owner, lease: lease)
    }

    func renew(_ ids: [Int64], owner: UUID, lease: Duration) async throws -> Set<Int64> {
        try await Task.sleep(for: renewal)
        return try await base.renew(ids, owner: owner, lease: lease)
    }

    func rescueExpired() async throws -> Int { try await base.rescueExpired() }
    func hasPendingWork() async throws -> Bool { try await base.hasPendingWork() }
    func timeUntilNextDueJob() async throws -> Duration? { try await base.timeUntilNextDueJob() }

    func deleteFinished(olderThan age: Duration, batchSize: Int) async throws -> Int {
        try await base.deleteFinished(olderThan: age, batchSize: batchSize)
    }

    func listen(_ wake: @escaping @Sendable () async -> Void) async { await base.listen(wake) }
}
