import Foundation
import PostgresStore
import TestSupport
import Testing

/// The embedded default: `pipeline db start|status|stop` and `migrate` against a private cluster in a temp folder.
@Suite struct EmbeddedClusterTests {
    @Test func startStatusMigrateStop() throws {
        let folder = try TestEnvironment.makeTemporaryFolder("embedded")
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = CommandLineTests.cleanEnvironment
        environment["PIPELINE_DATABASE_MIGRATIONS"] = TestDatabase.migrations.path
        func pipeline(_ arguments: String...) throws -> ChildProcess.Result {
            try runPipeline(arguments, environment: environment, in: folder)
        }

        let before = try pipeline("db", "status")
        let start = try pipeline("db", "start")
        let startAgain = try pipeline("db", "start")
        let migrate = try pipeline("migrate")
        let running = try pipeline("db", "status")
        let stop = try pipeline("db", "stop")
        let after = try pipeline("db", "status")

        #expect(before.status == 3)
        #expect(before.standardOutput.contains("not created yet"))
        #expect(start.status == 0, "\(start.standardError)")
        #expect(start.standardOutput.contains("started the embedded PostgreSQL"))
        #expect(startAgain.standardOutput.contains("already running"))
        #expect(migrate.status == 0, "\(migrate.standardError)")
        #expect(migrate.standardError.contains("embedded PostgreSQL"))
        #expect(running.status == 0)
        #expect(running.standardOutput.contains("running"))
        #expect(running.standardOutput.contains("0 pending"))
        #expect(stop.standardOutput.contains("stopped the embedded PostgreSQL"))
        #expect(after.status == 3)
        #expect(after.standardOutput.contains("stopped"))
        let socketFiles = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent(".pipeline/run").path)
        #expect(!socketFiles.contains(".s.PGSQL.5432"), "no socket left after stop")
    }
}
