import DatabaseTestSupport
import Foundation
import Logging
import PipelineCore
import PostgresStore
import TestSupport
import Testing

@Suite("PostgresWorkQueue")
struct QueueTests {
    @Test("a key enqueued twice (two transactions, twice in one batch, or beside new keys) makes one job")
    func duplicateEnqueue() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let first = try await connection.transaction { connection in
                try PostgresWorkQueue.enqueue(
                    [NewJob(key: "abc"), NewJob(key: "abc"), NewJob(key: "def")], in: connection)
            }
            let again = try await connection.transaction { try PostgresWorkQueue.enqueue(NewJob(key: "abc"), in: $0) }
            let mixed = try await connection.transaction { connection in
                try PostgresWorkQueue.enqueue(
                    [NewJob(key: "ghi"), NewJob(key: "abc"), NewJob(key: "jkl")], in: connection)
            }
            let count = try await connection.query("SELECT count(*) AS n FROM jobs WHERE key = 'abc'").first?.int("n")
            let keys = try await connection.query("SELECT key FROM jobs ORDER BY key").map { try $0.string("key") }
            #expect(first == 2)
            #expect(again == false)
            #expect(mixed == 2)
            #expect(count == 1)
            #expect(keys == ["abc", "def", "ghi", "jkl"])
        }
    }

    @Test("one NOTIFY per enqueueing transaction, delivered at commit")
    func notifyOncePerTransaction() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let listener = try await PostgresConnection.connect(to: PostgresTarget(url), label: "test-listen")
            try await listener.execute(script: "LISTEN \(PostgresWorkQueue.channel)")
            _ = try await connection.transaction { connection in
                try PostgresWorkQueue.enqueue(NewJob(key: "a"), in: connection)
                try PostgresWorkQueue.enqueue([NewJob(key: "b"), NewJob(key: "c")], in: connection)
            }
            let received = try await listener.waitForNotifications(timeout: .seconds(5))
            let more = try await listener.waitForNotifications(timeout: .milliseconds(200))
            await listener.close()
            #expect(received.count == 1)
            #expect(received.first?.channel == PostgresWorkQueue.channel)
            #expect(more.isEmpty)
        }
    }

    @Test("claims come in priority order, at most the limit, and concurrent claimers never share a job")
    func batchClaim() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await connection.transaction { connection in
                try PostgresWorkQueue.enqueue(
                    (0..<40).map { NewJob(key: "k\($0)", priority: $0 < 5 ? 1 : 0) }, in: connection)
            }
            let (queueA, queueB) = (QueueFixture.queue(url), QueueFixture.queue(url))
            let (ownerA, ownerB) = (UUID(), UUID())
            async let claimedA = queueA.claim(limit: 20, owner: ownerA, lease: .seconds(60))
            async let claimedB = queueB.claim(limit: 20, owner: ownerB, lease: .seconds(60))
            let (a, b) = try await (claimedA, claimedB)
            let rest = try await queueA.claim(limit: 20, owner: ownerA, lease: .seconds(60))
            await queueA.close()
            await queueB.close()
            #expect(a.count + b.count == 40)
            #expect(Set(a.map(\.id)).isDisjoint(with: Set(b.map(\.id))))
            #expect(rest.isEmpty)
            #expect((a + b).allSatisfy { $0.attempt == 1 })
            let lowPriorityFirstClaim = try await connection.query(
                "SELECT count(*) AS n FROM jobs WHERE priority = 1 AND lease_owner = ANY($1::uuid[])",
                ["{\(ownerA.uuidString),\(ownerB.uuidString)}"]
            ).first?.int("n")
            #expect(lowPriorityFirstClaim == 5)
        }
    }

    @Test("a job holds a lease exactly while it runs (the constraint the settling statements rely on)")
    func leaseOnlyWhileRunning() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            _ = try await QueueFixture.enqueue(1, on: connection)
            await #expect(throws: PostgresError.self) {
                try await connection.query(
                    "UPDATE jobs SET lease_owner = gen_random_uuid(), lease_expires_at = now() WHERE state = 'ready'")
            }
            await #expect(throws: PostgresError.self) {
                try await connection.query("UPDATE jobs SET state = 'running' WHERE state = 'ready'")
            }
        }
    }

    @Test("priority 0 is claimed before priority 1")
    func priorityOrder() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await connection.transaction { connection in
                try PostgresWorkQueue.enqueue(
                    [NewJob(key: "later", priority: 1), NewJob(key: "first", priority: 0)], in: connection)
            }
            let queue = QueueFixture.queue(url)
            let claimed = try await queue.claim(limit: 1, owner: UUID(), lease: .seconds(60))
            await queue.close()
            #expect(claimed.map(\.key) == ["first"])
        }
    }

    @Test("retryable failures back off exponentially within the jitter band, then the job is dead with its history")
    func retryScheduleThenDead() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await QueueFixture.enqueue(1, maxAttempts: 3, on: connection)
            let queue = QueueFixture.queue(url)
            let owner = UUID()
            var delays = [Double]()
            for attempt in 1...3 {
                let job = try #require(try await queue.claim(limit: 1, owner: owner, lease: .seconds(60)).first)
                #expect(job.attempt == attempt)
                let failure = JobFailure.retryable(
                    stage: .pipeline(.llm), "HTTP 503 from the model API (attempt \(attempt))")
                let report = try await queue.settle([JobSettlement(job: job, outcome: .failed(failure))], owner: owner)
                let row = try await QueueFixture.row(job.id, on: connection)
                if attempt < 3 {
                    #expect(report.retried == [job.id])
                    #expect(row.state == "ready")
                    delays.append(row.runAtFromNow)
                    try await QueueFixture.makeDue(on: connection)
                } else {
                    #expect(report.dead == [job.id])
                    #expect(row.state == "dead")
                    #expect(row.errors.map { $0["attempt"] as? Int } == [1, 2, 3])
                    #expect(
                        row.errors.allSatisfy { $0["stage"] as? String == "llm" && $0["permanent"] as? Bool == false })
                    #expect(row.lastError == "llm: HTTP 503 from the model API (attempt 3)")
                }
            }
            await queue.close()
            // base 1 s: attempt 1 waits 0.5…1 s, attempt 2 waits 1…2 s (run_at is measured a moment later).
            #expect(delays.count == 2)
            #expect(delays[0] > 0.3 && delays[0] <= 1.0)
            #expect(delays[1] > 0.8 && delays[1] <= 2.0)
        }
    }

    @Test("a failure's requested delay (Retry-After) is honoured")
    func retryAfter() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await QueueFixture.enqueue(1, on: connection)
            let queue = QueueFixture.queue(url)
            let owner = UUID()
            let job = try #require(try await queue.claim(limit: 1, owner: owner, lease: .seconds(60)).first)
            let failure = JobFailure.retryable(stage: .pipeline(.llm), "HTTP 429", after: .seconds(120))
            _ = try await queue.settle([JobSettlement(job: job, outcome: .failed(failure))], owner: owner)
            let claimedEarly = try await queue.claim(limit: 1, owner: owner, lease: .seconds(60))
            await queue.close()
            let row = try await QueueFixture.row(job.id, on: connection)
            #expect(row.state == "ready")
            #expect(row.runAtFromNow > 110 && row.runAtFromNow <= 120)
            #expect(claimedEarly.isEmpty)
        }
    }

    @Test("a permanent error makes the job dead at once")
    func permanentFailure() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await QueueFixture.enqueue(1, maxAttempts: 5, on: connection)
            let queue = QueueFixture.queue(url)
            let owner = UUID()
            let job = try #require(try await queue.claim(limit: 1, owner: owner, lease: .seconds(60)).first)
            let failure = JobFailure.permanent(
                stage: .pipeline(.decode), "not a JPEG, PNG, TIFF, WebP, BMP or GIF image")
            let report = try await queue.settle([JobSettlement(job: job, outcome: .failed(failure))], owner: owner)
            await queue.close()
            let row = try await QueueFixture.row(job.id, on: connection)
            #expect(report.dead == [job.id])
            #expect(row.state == "dead")
            #expect(row.attempts == 1)
            #expect(row.errors.first?["permanent"] as? Bool == true)
        }
    }

    @Test("completion writes commit with the acknowledgement; a failing write fails only its own job")
    func completionWrites() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            try await connection.execute(script: "CREATE TABLE results (job_id bigint PRIMARY KEY)")
            _ = try await QueueFixture.enqueue(2, on: connection)
            let queue = QueueFixture.queue(url)
            let owner = UUID()
            let jobs = try await queue.claim(limit: 2, owner: owner, lease: .seconds(60))
            try #require(jobs.count == 2)
            let good = jobs[0]
            let bad = jobs[1]
            let goodWrites: PostgresWrites = { try $0.query("INSERT INTO results VALUES ($1)", [good.id]) }
            let badWrites: PostgresWrites = { connection in
                try connection.query("INSERT INTO results VALUES ($1)", [bad.id])
                try connection.query("INSERT INTO results VALUES ($1)", [bad.id])  // duplicate key: fails
            }
            let report = try await queue.settle(
                [
                    JobSettlement(job: good, outcome: .completed(goodWrites)),
                    JobSettlement(job: bad, outcome: .completed(badWrites)),
                ], owner: owner)
            await queue.close()
            let stored = try await connection.query("SELECT job_id FROM results").map { try $0.int("job_id") }
            let badRow = try await QueueFixture.row(bad.id, on: connection)
            #expect(report.done == [good.id])
            #expect(report.retried == [bad.id])
            #expect(stored == [Int(good.id)])
            #expect(badRow.state == "ready")
            #expect(badRow.errors.first?["stage"] as? String == "store")
        }
    }

    /// Issue 25: a value the database cannot store (here an impossible date) fails every attempt alike, so the job
    /// goes dead at once with the database's words, instead of running OCR and the LLM again until it is out of
    /// attempts.
    @Test("a completion write refused for its data fails the job for good")
    func unstorableValueIsPermanent() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await QueueFixture.enqueue(1, on: connection)
            let queue = QueueFixture.queue(url)
            let owner = UUID()
            let job = try #require(try await queue.claim(limit: 1, owner: owner, lease: .seconds(60)).first)
            let writes: PostgresWrites = { try $0.query("SELECT $1::date", ["2024-02-30"]) }

            let report = try await queue.settle([JobSettlement(job: job, outcome: .completed(writes))], owner: owner)
            await queue.close()
            let row = try await QueueFixture.row(job.id, on: connection)

            #expect(report.dead == [job.id])
            #expect(row.state == "dead")
            #expect(row.errors.first?["permanent"] as? Bool == true)
            #expect(row.errors.first?["stage"] as? String == "store")
            #expect((row.errors.first?["message"] as? String)?.contains("out of range") == true, "\(row.errors)")
        }
    }

    /// Issue 37: a worker stopped after it locks its jobs' rows for settlement, before its writes, must not hold
    /// them with no limit: the transaction's idle limit is set before the first lock.
    @Test("a settlement stalled after locking its jobs frees them within the idle limit")
    func stalledSettlementFreesItsJobs() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await QueueFixture.enqueue(1, on: connection)
            let queue = QueueFixture.queue(url)
            let owner = UUID()
            let job = try #require(try await queue.claim(limit: 1, owner: owner, lease: .seconds(60)).first)
            let idle = TimeInterval(TransactionLimits.idleSeconds)
            // The writes run after the job's row is locked: the worker goes silent there, as a stopped one would.
            let writes: PostgresWrites = { _ in Thread.sleep(forTimeInterval: idle * 2 + 2) }
            let stalled = Task {
                try await queue.settle([JobSettlement(job: job, outcome: .completed(writes))], owner: owner)
            }
            try await Task.sleep(for: .seconds(1))

            let started = Date()
            let locked = try await connection.transaction { connection in
                try connection.query("SELECT id FROM jobs WHERE id = $1 FOR UPDATE", [job.id]).count
            }
            let waited = Date().timeIntervalSince(started)
            _ = try? await stalled.value
            await queue.close()

            #expect(locked == 1)
            #expect(waited < idle * 2, "waited \(waited) s for the stalled worker's lock")
        }
    }

    @Test("expired leases are rescued (attempt counted), live ones never; the old owner can no longer settle")
    func rescueAndLostLease() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            try await connection.execute(script: "CREATE TABLE results (job_id bigint)")
            _ = try await QueueFixture.enqueue(2, on: connection)
            let queue = QueueFixture.queue(url)
            let (crashed, alive) = (UUID(), UUID())
            let lostJob = try #require(try await queue.claim(limit: 1, owner: crashed, lease: .seconds(60)).first)
            let liveJob = try #require(try await queue.claim(limit: 1, owner: alive, lease: .seconds(60)).first)
            try await connection.query(
                "UPDATE jobs SET lease_expires_at = now() - interval '1 second' WHERE id = $1", [lostJob.id])
            let rescued = try await queue.rescueExpired()
            let rescuedRow = try await QueueFixture.row(lostJob.id, on: connection)
            let liveRow = try await QueueFixture.row(liveJob.id, on: connection)
            let lateWrites: PostgresWrites = { try $0.query("INSERT INTO results VALUES ($1)", [lostJob.id]) }
            let late = try await queue.settle(
                [JobSettlement(job: lostJob, outcome: .completed(lateWrites))], owner: crashed)
            let reclaimed = try await queue.claim(limit: 5, owner: alive, lease: .seconds(60))
            await queue.close()
            let written = try await connection.query("SELECT count(*) AS n FROM results").first?.int("n")
            #expect(rescued == 1)
            #expect(rescuedRow.state == "ready")
            #expect(rescuedRow.errors.first?["stage"] as? String == "lease")
            #expect(liveRow.state == "running")
            #expect(liveRow.leaseOwner == alive.uuidString.lowercased())
            #expect(late.lost == [lostJob.id])
            #expect(written == 0)
            #expect(reclaimed.map(\.id) == [lostJob.id])
            #expect(reclaimed.first?.attempt == 2)
        }
    }

    @Test("a rescued job out of attempts goes dead")
    func rescueOutOfAttempts() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await QueueFixture.enqueue(1, maxAttempts: 1, on: connection)
            let queue = QueueFixture.queue(url)
            let job = try #require(try await queue.claim(limit: 1, owner: UUID(), lease: .seconds(60)).first)
            try await connection.query("UPDATE jobs SET lease_expires_at = now() - interval '1 second'")
            _ = try await queue.rescueExpired()
            await queue.close()
            #expect(try await QueueFixture.row(job.id, on: connection).state == "dead")
        }
    }

    @Test("the configured attempt limit (queue.maxAttempts) replaces the one frozen into jobs at ingest")
    func configuredAttemptLimit() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await QueueFixture.enqueue(2, maxAttempts: 5, on: connection)
            let policy = RetryPolicy(base: .seconds(1), cap: .seconds(600), maxAttempts: 2)
            let queue = PostgresWorkQueue(
                target: PostgresTarget(url), retryPolicy: policy, label: "test", logger: Logger(label: "test"))
            let owner = UUID()
            let failure = JobFailure.retryable(stage: .pipeline(.llm), "HTTP 503 from the model API")
            let settled = try await queue.claim(limit: 1, owner: owner, lease: .seconds(60))[0]
            let rescued = try await queue.claim(limit: 1, owner: owner, lease: .seconds(60))[0]
            #expect(settled.maxAttempts == 2)
            // Settled: the second failed attempt is the last.
            _ = try await queue.settle([JobSettlement(job: settled, outcome: .failed(failure))], owner: owner)
            try await QueueFixture.makeDue(on: connection)
            let retry = try #require(try await queue.claim(limit: 1, owner: owner, lease: .seconds(60)).first)
            let report = try await queue.settle([JobSettlement(job: retry, outcome: .failed(failure))], owner: owner)
            #expect(report.dead == [settled.id])
            #expect(report.failures[settled.id] == failure)
            // Rescued: two expired leases use up two attempts.
            let expire = "UPDATE jobs SET lease_expires_at = now() - interval '1 second' WHERE id = $1"
            try await connection.query(expire, [rescued.id])
            #expect(try await queue.rescueExpired() == 1)
            _ = try #require(try await queue.claim(limit: 1, owner: owner, lease: .seconds(60)).first)
            try await connection.query(expire, [rescued.id])
            #expect(try await queue.rescueExpired() == 1)
            await queue.close()
            #expect(try await QueueFixture.row(rescued.id, on: connection).state == "dead")
            let limits = try await connection.query("SELECT DISTINCT max_attempts AS n FROM jobs")
                .map { try $0.int("n") }
            #expect(limits == [2], "the row shows the limit that was applied")
        }
    }

    @Test("the queue says when the earliest scheduled job comes due")
    func timeUntilNextDueJob() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let queue = QueueFixture.queue(url)
            #expect(try await queue.timeUntilNextDueJob() == nil)
            _ = try await QueueFixture.enqueue(2, on: connection)
            #expect(try await queue.timeUntilNextDueJob() == .zero)
            try await connection.query("UPDATE jobs SET run_at = now() + interval '30 seconds'")
            try await connection.query("UPDATE jobs SET run_at = now() + interval '3 seconds' WHERE key = 'job-1'")
            let dueIn = try #require(try await queue.timeUntilNextDueJob())
            await queue.close()
            #expect(dueIn > .seconds(2) && dueIn <= .seconds(3))
        }
    }

    @Test("heartbeats extend only the owner's leases")
    func renew() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await QueueFixture.enqueue(1, on: connection)
            let queue = QueueFixture.queue(url)
            let owner = UUID()
            let job = try #require(try await queue.claim(limit: 1, owner: owner, lease: .seconds(5)).first)
            let renewed = try await queue.renew([job.id], owner: owner, lease: .seconds(300))
            let stranger = try await queue.renew([job.id], owner: UUID(), lease: .seconds(1))
            await queue.close()
            let expiresIn =
                try await connection.query(
                    "SELECT extract(epoch FROM lease_expires_at - now()) AS s FROM jobs"
                ).first?.double("s") ?? 0
            #expect(renewed == [job.id])
            #expect(stranger.isEmpty)
            #expect(expiresIn > 290)
        }
    }

    @Test("released jobs are ready at once with the attempt not counted; dead jobs can be requeued")
    func releaseAndRequeue() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await QueueFixture.enqueue(2, on: connection)
            let queue = QueueFixture.queue(url)
            let owner = UUID()
            let jobs = try await queue.claim(limit: 2, owner: owner, lease: .seconds(60))
            try #require(jobs.count == 2)
            let report = try await queue.settle(
                [
                    JobSettlement(job: jobs[0], outcome: .released),
                    JobSettlement(
                        job: jobs[1], outcome: .failed(.permanent(stage: .pipeline(.decode), "corrupt image"))),
                ], owner: owner)
            let released = try await QueueFixture.row(jobs[0].id, on: connection)
            let requeued = try await connection.transaction { try PostgresWorkQueue.requeueDead(nil, in: $0) }
            let revived = try await QueueFixture.row(jobs[1].id, on: connection)
            let next = try await queue.claim(limit: 5, owner: owner, lease: .seconds(60))
            await queue.close()
            #expect(report.released == [jobs[0].id])
            #expect(released.state == "ready" && released.attempts == 0 && released.leaseOwner == nil)
            #expect(requeued == 1)
            #expect(revived.state == "ready" && revived.attempts == 0 && revived.errors.count == 1)
            #expect(Set(next.map(\.id)) == Set(jobs.map(\.id)))
        }
    }

    @Test("retention deletes only done jobs older than the cutoff, in batches")
    func retention() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await QueueFixture.enqueue(5, on: connection)
            try await connection.execute(
                script: """
                    UPDATE jobs SET state = 'done', finished_at = now() - interval '8 days' WHERE key IN ('job-0', 'job-1', 'job-2');
                    UPDATE jobs SET state = 'done', finished_at = now() WHERE key = 'job-3';
                    UPDATE jobs SET state = 'dead', finished_at = now() - interval '30 days' WHERE key = 'job-4';
                    """)
            let queue = QueueFixture.queue(url)
            let first = try await queue.deleteFinished(olderThan: .seconds(7 * 86_400), batchSize: 2)
            let second = try await queue.deleteFinished(olderThan: .seconds(7 * 86_400), batchSize: 2)
            await queue.close()
            let left = try await connection.query("SELECT key FROM jobs ORDER BY key").map { try $0.string("key") }
            #expect(first == 2 && second == 1)
            #expect(left == ["job-3", "job-4"])
        }
    }

    @Test("health counts states, scheduled retries, expired leases, retried and dead jobs by stage")
    func health() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await QueueFixture.enqueue(6, on: connection)
            let queue = QueueFixture.queue(url)
            let owner = UUID()
            let jobs = try await queue.claim(limit: 4, owner: owner, lease: .seconds(60))
            try #require(jobs.count == 4)
            _ = try await queue.settle(
                [
                    JobSettlement(job: jobs[0], outcome: .completed(nil)),
                    JobSettlement(
                        job: jobs[1], outcome: .failed(.permanent(stage: .pipeline(.decode), "corrupt image"))),
                    JobSettlement(
                        job: jobs[2],
                        outcome: .failed(.retryable(stage: .pipeline(.llm), "timeout", after: .seconds(3600)))),
                ], owner: owner)
            try await connection.query(
                "UPDATE jobs SET lease_expires_at = now() - interval '1 second' WHERE id = $1", [jobs[3].id])
            await queue.close()
            let health = try await connection.transaction { try PostgresWorkQueue.health(in: $0) }
            #expect(health.counts == [.ready: 3, .running: 1, .done: 1, .dead: 1])
            #expect(health.scheduled == 1)
            #expect(health.runningPastLease == 1)
            #expect(health.retried == 1)
            #expect(
                health.deadByReason == [
                    QueueHealth.DeadReason(stage: .pipeline(.decode), count: 1, example: "decode: corrupt image")
                ])
            #expect(health.oldestReadyAge != nil)
        }
    }
}

@Suite("PostgresWorkQueue keys")
struct QueueKeyTests {
    @Test("keys with quotes, backslashes, commas and braces round-trip through the batched enqueue")
    func awkwardKeys() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let keys = [#"a"b"#, #"back\slash"#, "comma,brace{}", "NULL", " spaced ", "ünïcode"]
            _ = try await connection.transaction { connection in
                try PostgresWorkQueue.enqueue(keys.map { NewJob(key: $0) }, in: connection)
            }
            let stored = try await connection.query("SELECT key FROM jobs ORDER BY id").map { try $0.string("key") }
            #expect(stored == keys)
        }
    }
}
