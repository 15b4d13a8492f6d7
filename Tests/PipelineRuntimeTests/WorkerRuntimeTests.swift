import DatabaseTestSupport
import Foundation
import Logging
import PipelineCore
import PipelineRuntime
import PostgresStore
import Synchronization
import TestSupport
import Testing

/// The worker runtime in this process, on a real queue.
@Suite("WorkerRuntime", .timeLimit(.minutes(2)))
struct WorkerRuntimeTests {
    private func runtime(
        _ url: String, poll: Duration = .milliseconds(200), drain: Bool = false,
        handler: @escaping WorkerRuntime<PostgresWorkQueue>.Handler
    ) -> (PostgresWorkQueue, WorkerRuntime<PostgresWorkQueue>) {
        let queue = PostgresWorkQueue(
            target: PostgresTarget(url), retryPolicy: RetryPolicy(base: .milliseconds(20), cap: .milliseconds(100)),
            label: "test", logger: Logger(label: "test"))
        let options = WorkerOptions(
            concurrency: 3, lease: .seconds(30), heartbeat: .seconds(5), pollInterval: poll,
            shutdownGrace: .seconds(5), retention: .seconds(86_400), drain: drain)
        return (queue, WorkerRuntime(queue: queue, options: options, logger: Logger(label: "test"), handler: handler))
    }

    @Test("handler outcomes: completions are done once, a retryable error is retried, a permanent one is dead")
    func handlerOutcomes() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let database = QueueDatabase(connection: connection)
            try await database.enqueue(20, prefix: "ok")
            _ = try await connection.transaction { connection in
                try PostgresWorkQueue.enqueue([NewJob(key: "flaky"), NewJob(key: "broken")], in: connection)
            }
            let runs = Mutex([String: Int]())
            let (queue, runtime) = runtime(url, drain: true) { job in
                let attempt = runs.withLock { runs in
                    runs[job.key ?? "", default: 0] += 1
                    return runs[job.key ?? ""]!
                }
                switch job.key {
                case "flaky" where attempt == 1: throw JobFailure.retryable(stage: .pipeline(.llm), "HTTP 503")
                case "broken": throw JobFailure.permanent(stage: .pipeline(.decode), "not an image")
                default: return .empty
                }
            }
            let summary = await runtime.run()
            await queue.close()
            let seen = runs.withLock { $0 }
            #expect(summary.done == 21)
            #expect(summary.retried == 1)
            #expect(summary.dead == 1)
            #expect(seen.filter { $0.key.hasPrefix("ok") }.allSatisfy { $0.value == 1 })
            #expect(seen["flaky"] == 2)
            #expect(seen["broken"] == 1)
            #expect(try await database.count(.done) == 21)
            #expect(try await database.count(.dead) == 1)
        }
    }

    @Test("retries run when they come due, not at the next idle poll")
    func scheduledRetries() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await connection.transaction { connection in
                try PostgresWorkQueue.enqueue(NewJob(key: "flaky", maxAttempts: 3), in: connection)
            }
            let (queue, runtime) = runtime(url, poll: .seconds(30), drain: true) { _ in
                throw JobFailure.retryable(stage: .pipeline(.llm), "HTTP 503")
            }
            // Each retry is due within 100 ms; waiting for the idle poll would take 30 s. Stop long before that.
            let finished = await runtime.run(stoppingAfter: .seconds(10))
            await queue.close()
            #expect(finished.claimed == 3)
            #expect(finished.dead == 1)
            #expect(try await QueueDatabase(connection: connection).count(.dead) == 1)
        }
    }

    @Test("notifications lost (listener disconnected, rows inserted without NOTIFY): the poll still picks work up")
    func lostNotifications() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let database = QueueDatabase(connection: connection)
            let (queue, runtime) = runtime(url) { _ in .empty }
            let run = Task { await runtime.run() }
            let listenerBackend = """
                SELECT pid FROM pg_stat_activity WHERE application_name = 'pipeline-listen' AND datname = current_database()
                """
            try await waitUntil("the listener is connected") { try await connection.query(listenerBackend).count == 1 }
            try await connection.query("SELECT pg_terminate_backend(pid) FROM (\(listenerBackend)) AS listener")
            try await connection.query("INSERT INTO jobs (key) VALUES ('silent-1'), ('silent-2')")
            try await waitUntil("the silently inserted jobs are done") { try await database.count(.done) == 2 }
            try await waitUntil("the listener is back") { try await connection.query(listenerBackend).count == 1 }
            try await database.enqueue(1, prefix: "after")
            try await waitUntil("the job enqueued later is done") { try await database.count(.done) == 3 }
            runtime.requestShutdown()
            let summary = await run.value
            await queue.close()
            #expect(summary.done == 3)
            #expect(try await database.count(.running) == 0)
        }
    }
}
