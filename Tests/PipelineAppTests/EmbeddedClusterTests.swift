import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// The embedded default: `pipeline db start|status|stop` and `migrate` against a private cluster in a temp folder.
@Suite struct EmbeddedClusterTests {
    @Test func startStatusMigrateStop() throws {
        let folder = try TestEnvironment.makeTemporaryFolder("embedded")
        defer { try? FileManager.default.removeItem(at: folder) }
        func pipeline(_ arguments: String...) throws -> ChildProcess.Result { try Self.run(arguments, in: folder) }

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

    /// A running server whose socket file is gone (a cleaner of temporary files; the server of a folder's earlier
    /// cluster, deleted while it ran, removing it on its way out) is restarted by the next command, which then reaches
    /// it, instead of failing to connect until someone ends the server by hand.
    @Test func aServerWhoseSocketIsGoneIsRestarted() throws {
        let folder = try TestEnvironment.makeTemporaryFolder("embedded-socket")
        defer { try? FileManager.default.removeItem(at: folder) }
        func pipeline(_ arguments: String...) throws -> ChildProcess.Result { try Self.run(arguments, in: folder) }
        defer { _ = try? pipeline("db", "stop") }
        let socket = folder.appendingPathComponent(".pipeline/run/.s.PGSQL.5432")

        let start = try pipeline("db", "start")
        #expect(start.status == 0, "\(start.standardError)")
        try FileManager.default.removeItem(at: socket)
        let again = try pipeline("db", "start")
        let migrate = try pipeline("migrate")

        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput.contains("started the embedded PostgreSQL"), "\(again.standardOutput)")
        #expect(FileManager.default.fileExists(atPath: socket.path))
        #expect(migrate.status == 0, "\(migrate.standardError)")
    }

    /// Issue 14 item 11: the cluster's own configuration keeps it private, so a server started by hand (no flags)
    /// listens on the socket only, and pg_hba.conf trusts no TCP client.
    @Test func handStartedServerListensOnTheSocketOnly() throws {
        let folder = try TestEnvironment.makeTemporaryFolder("embedded")
        defer { try? FileManager.default.removeItem(at: folder) }
        let cluster = folder.appendingPathComponent(".pipeline")
        let start = try runPipeline(["db", "start"], environment: CommandLineTests.cleanEnvironment, in: folder)
        let stop = try runPipeline(["db", "stop"], environment: CommandLineTests.cleanEnvironment, in: folder)
        #expect(start.status == 0 && stop.status == 0, "\(start.standardError)\(stop.standardError)")

        let access = try String(contentsOf: cluster.appendingPathComponent("data/pg_hba.conf"), encoding: .utf8)
        let rules = access.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.allSatisfy(\.isWhitespace) }
        #expect(rules.allSatisfy { $0.hasPrefix("local") }, "\(rules)")

        let data = cluster.appendingPathComponent("data").path
        let log = cluster.appendingPathComponent("hand-started.log").path
        let handStart = try serverTool("pg_ctl", ["-D", data, "-l", log, "-w", "start"])
        defer { _ = try? serverTool("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]) }
        #expect(handStart.status == 0, "\(handStart.standardOutput)\(handStart.standardError)")
        let listening = try serverTool(
            "psql",
            [
                "-h", cluster.appendingPathComponent("run").path, "-U", "postgres", "-d", "postgres", "-tAc",
                "SHOW listen_addresses",
            ])
        #expect(listening.status == 0, "the socket is in run/: \(listening.standardError)")
        #expect(listening.standardOutput == "\n", "no TCP listener: '\(listening.standardOutput)'")
    }

    /// Issue 14 item 10: as root in a folder user postgres cannot enter (root's 0700 home), the cluster starts.
    @Test(.enabled(if: geteuid() == 0, "needs root"))
    func rootInAPrivateFolderStartsTheCluster() throws {
        let privateFolder = try TestEnvironment.makeTemporaryFolder("private")
        defer { try? FileManager.default.removeItem(at: privateFolder) }
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: privateFolder.path)
        let project = privateFolder.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        let start = try Self.run(["db", "start"], in: project)
        let link = try? FileManager.default.destinationOfSymbolicLink(
            atPath: project.appendingPathComponent(".pipeline").path)
        defer {
            _ = try? Self.run(["db", "stop"], in: project)
            if let link { try? FileManager.default.removeItem(atPath: link) }
        }
        let migrate = try Self.run(["migrate"], in: project)
        let status = try Self.run(["db", "status"], in: project)

        #expect(start.status == 0, "\(start.standardOutput)\(start.standardError)")
        #expect(link?.hasPrefix("/var/lib/receipt-pipeline/") == true, "\(String(describing: link))")
        #expect(migrate.status == 0, "\(migrate.standardError)")
        #expect(status.standardOutput.contains("0 pending"), "\(status.standardOutput)")
    }

    /// Runs `pipeline` in `folder` with a clean environment and the test migrations.
    private static func run(_ arguments: [String], in folder: URL) throws -> ChildProcess.Result {
        var environment = CommandLineTests.cleanEnvironment
        environment["PIPELINE_DATABASE_MIGRATIONS"] = TestDatabase.migrations.path
        return try runPipeline(arguments, environment: environment, in: folder)
    }

    /// Runs a PostgreSQL program as the user owning the cluster (postgres under root).
    private func serverTool(_ tool: String, _ arguments: [String]) throws -> ChildProcess.Result {
        let bin = ProcessInfo.processInfo.environment["PIPELINE_TEST_PG_BIN"] ?? "/usr/lib/postgresql/15/bin"
        let executable = bin + "/" + tool
        if geteuid() == 0 {
            return try ChildProcess.run("/usr/sbin/runuser", ["-u", "postgres", "--", executable] + arguments)
        }
        return try ChildProcess.run(executable, arguments)
    }
}
