import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// Worker processes (the built `pipeline queue-worker`) against real PostgreSQL: exactly-once completion across
/// processes, `kill -9`, SIGTERM, and a database restart.
@Suite("Worker processes", .timeLimit(.minutes(3)))
struct WorkerProcessTests {
    @Test("300 jobs across 3 worker processes: every job done exactly once")
    func threeProcesses() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let database = QueueDatabase(connection: connection)
            try await database.prepareRecording()
            try await database.enqueue(300)
            let folder = try TestEnvironment.makeTemporaryFolder("workers")
            defer { try? FileManager.default.removeItem(at: folder) }
            let workers = try (0..<3).map { _ in
                try WorkerProcess(
                    databaseURL: url,
                    ["--drain", "--concurrency", "4", "--job-time", "5ms", "--record", "--poll", "100ms"],
                    folder: folder)
            }
            for worker in workers {
                let status = try await worker.waitForExit()
                #expect(status == 0, "\(worker.output)")
            }
            #expect(try await database.count(.done) == 300)
            let completions = try await database.completions()
            #expect(completions.total == 300)
            #expect(completions.distinct == 300)
        }
    }

    @Test("kill -9 mid-job: the job is rescued after its lease and done once")
    func killNine() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let database = QueueDatabase(connection: connection)
            try await database.prepareRecording()
            try await database.enqueue(1)
            let folder = try TestEnvironment.makeTemporaryFolder("kill9")
            defer { try? FileManager.default.removeItem(at: folder) }
            let lease = ["--lease", "1s", "--heartbeat", "200ms", "--poll", "100ms", "--record"]
            let doomed = try WorkerProcess(databaseURL: url, ["--job-time", "60s"] + lease, folder: folder)
            try await waitUntil("the job runs") { try await database.count(.running) == 1 }
            doomed.send(SIGKILL)
            #expect(try await doomed.waitForExit() == SIGKILL)
            let rescuer = try WorkerProcess(databaseURL: url, ["--drain"] + lease, folder: folder)
            #expect(try await rescuer.waitForExit() == 0, "\(rescuer.output)")
            let row = try await connection.query("SELECT state, attempts, errors -> 0 ->> 'stage' AS stage FROM jobs")
                .first
            #expect(try row?.string("state") == "done")
            #expect(try row?.int("attempts") == 2)
            #expect(try row?.string("stage") == "lease")
            #expect(try await database.completions() == (1, 1))
        }
    }

    @Test("SIGTERM: in-flight jobs finish, nothing is claimed after, no lease is left")
    func gracefulShutdown() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let database = QueueDatabase(connection: connection)
            try await database.prepareRecording()
            try await database.enqueue(6)
            let folder = try TestEnvironment.makeTemporaryFolder("sigterm")
            defer { try? FileManager.default.removeItem(at: folder) }
            let worker = try WorkerProcess(
                databaseURL: url,
                ["--concurrency", "2", "--job-time", "1500ms", "--grace", "20s", "--record", "--poll", "100ms"],
                folder: folder)
            try await waitUntil("two jobs run") { try await database.count(.running) == 2 }
            worker.send(SIGTERM)
            #expect(try await worker.waitForExit() == 0, "\(worker.output)")
            #expect(try await database.count(.done) == 2)
            #expect(try await database.count(.ready) == 4)
            #expect(try await database.count(.running) == 0)
            #expect(try await database.leased() == 0)
            let neverClaimed = try await connection.query(
                "SELECT count(*) AS n FROM jobs WHERE state = 'ready' AND attempts = 0"
            ).first?.int("n")
            #expect(neverClaimed == 4)
            #expect(try await database.completions() == (2, 2))
        }
    }

    @Test("SIGTERM past the grace period, and a second signal: jobs are cancelled and released for others at once")
    func shutdownReleasesLeases() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let database = QueueDatabase(connection: connection)
            try await database.prepareRecording()
            try await database.enqueue(4)
            let folder = try TestEnvironment.makeTemporaryFolder("release")
            defer { try? FileManager.default.removeItem(at: folder) }
            // Grace expires: SIGTERM alone ends the run.
            let shortGrace = try WorkerProcess(
                databaseURL: url, ["--concurrency", "2", "--job-time", "60s", "--grace", "300ms", "--lease", "60s"],
                folder: folder)
            try await waitUntil("two jobs run") { try await database.count(.running) == 2 }
            shortGrace.send(SIGTERM)
            #expect(try await shortGrace.waitForExit(timeout: .seconds(20)) == 0, "\(shortGrace.output)")
            #expect(try await database.count(.running) == 0)
            // Long grace: only the second signal ends the run before it.
            let longGrace = try WorkerProcess(
                databaseURL: url, ["--concurrency", "2", "--job-time", "60s", "--grace", "120s", "--lease", "60s"],
                folder: folder)
            try await waitUntil("two jobs run") { try await database.count(.running) == 2 }
            longGrace.send(SIGTERM)
            try await waitUntil("the stop is acknowledged") { longGrace.output.contains("stopping:") }
            longGrace.send(SIGINT)
            #expect(try await longGrace.waitForExit(timeout: .seconds(20)) == 0, "\(longGrace.output)")
            #expect(try await database.count(.running) == 0)
            #expect(try await database.leased() == 0)
            // Released, not waiting out the 60 s lease: another worker takes every job now.
            let next = try WorkerProcess(databaseURL: url, ["--drain", "--record", "--lease", "60s"], folder: folder)
            #expect(try await next.waitForExit(timeout: .seconds(30)) == 0, "\(next.output)")
            #expect(try await database.count(.done) == 4)
            #expect(try await database.completions() == (4, 4))
        }
    }

    @Test("the database restarts mid-run: workers reconnect and finish, nothing lost or duplicated")
    func databaseRestart() async throws {
        let server = try PrivatePostgres()
        defer { server.remove() }
        let admin = try await PostgresConnection.connect(to: PostgresTarget(server.url()), label: "test-admin")
        try await admin.execute(script: "CREATE DATABASE queue_restart")
        await admin.close()
        let url = server.url(database: "queue_restart")
        let setup = try await PostgresConnection.connect(to: PostgresTarget(url), label: "test")
        _ = try await Migrator(directory: TestDatabase.migrations).migrate(setup)
        try await QueueDatabase(connection: setup).prepareRecording()
        try await QueueDatabase(connection: setup).enqueue(600)
        let folder = try TestEnvironment.makeTemporaryFolder("restart")
        defer { try? FileManager.default.removeItem(at: folder) }
        let workers = try (0..<2).map { _ in
            try WorkerProcess(
                databaseURL: url,
                ["--drain", "--concurrency", "4", "--job-time", "25ms", "--record", "--poll", "100ms"],
                folder: folder)
        }
        try await waitUntil("100 jobs are done") { try await QueueDatabase(connection: setup).count(.done) >= 100 }
        let doneBeforeRestart = try await QueueDatabase(connection: setup).count(.done)
        await setup.close()
        try server.restart()
        for worker in workers {
            #expect(try await worker.waitForExit(timeout: .seconds(90)) == 0, "\(worker.output)")
        }
        let check = try await PostgresConnection.connect(to: PostgresTarget(url), label: "test")
        let database = QueueDatabase(connection: check)
        let done = try await database.count(.done)
        let completions = try await database.completions()
        await check.close()
        #expect(workers.contains { $0.output.contains("reconnect") || $0.output.contains("failed") })
        #expect(doneBeforeRestart < 600)
        #expect(done == 600)
        #expect(completions.total == 600)
        #expect(completions.distinct == 600)
    }
}
