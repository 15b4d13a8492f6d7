import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// Runs the built `pipeline` binary as an operator would.
@Suite struct CommandLineTests {
    /// The inherited environment without any database, OpenMP or glibc settings.
    static var cleanEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("PG") && $0.key != "DATABASE_URL" && $0.key != "OMP_THREAD_LIMIT"
                && $0.key != "GLIBC_TUNABLES" && !$0.key.hasPrefix("PIPELINE_")
        }
    }

    /// `cleanEnvironment` for a run against the test database at `url`: its migrations, and ingest with no settle time.
    static func environment(database url: String) -> [String: String] {
        var environment = cleanEnvironment
        environment["DATABASE_URL"] = url
        environment["PIPELINE_DATABASE_MIGRATIONS"] = TestDatabase.migrations.path
        environment["PIPELINE_INGEST_SETTLE_TIME"] = "0s"
        return environment
    }

    @Test func startupSettingsAreInForceEvenWhenUnset() throws {
        #expect(Self.cleanEnvironment["OMP_THREAD_LIMIT"] == nil)
        let result = try runPipeline(["version"], environment: Self.cleanEnvironment)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("OMP_THREAD_LIMIT=1"))
        #expect(result.standardOutput.contains("GLIBC_TUNABLES=glibc.malloc.hugetlb=1"))
    }

    @Test func anOperatorsGlibcTunablesAreKept() throws {
        var environment = Self.cleanEnvironment
        environment["GLIBC_TUNABLES"] = "glibc.malloc.arena_max=1"
        let result = try runPipeline(["version"], environment: environment)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("GLIBC_TUNABLES=glibc.malloc.arena_max=1"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("OMP_THREAD_LIMIT=1"))
    }

    @Test func unreachableDatabaseExitsThreeWithAClearMessage() throws {
        var environment = Self.cleanEnvironment
        environment["DATABASE_URL"] = "postgres://postgres@127.0.0.1:1/receipts"
        let folder = try TestEnvironment.makeTemporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try runPipeline(["migrate"], environment: environment, in: folder)
        #expect(result.status == 3)
        #expect(
            result.standardError.contains("cannot connect to PostgreSQL at postgres://postgres@127.0.0.1:1/receipts"))
        #expect(result.standardError.contains("DATABASE_URL"))
    }

    @Test func malformedConfigurationExitsTwoNamingTheLine() throws {
        let folder = try TestEnvironment.makeTemporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        try "workers:\n  concurrency: lots\n".write(
            to: folder.appendingPathComponent("pipeline.yaml"), atomically: true, encoding: .utf8)
        let result = try runPipeline(["migrate"], environment: Self.cleanEnvironment, in: folder)
        #expect(result.status == 2)
        #expect(
            result.standardError.contains("pipeline.yaml:2:16: error: 'workers.concurrency' must be a whole number"))
    }

    /// Issue 14 item 3: a lease the heartbeat cannot keep is refused before anything runs.
    @Test(arguments: [("30s", "30s"), ("2s", "1s"), ("60s", "21s"), ("1s", "500ms")])
    func leaseTheHeartbeatCannotKeepExitsTwo(lease: String, heartbeat: String) throws {
        let folder = try TestEnvironment.makeTemporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        try "queue:\n  lease: \(lease)\n  heartbeat: \(heartbeat)\n".write(
            to: folder.appendingPathComponent("pipeline.yaml"), atomically: true, encoding: .utf8)
        var environment = Self.cleanEnvironment
        environment["DATABASE_URL"] = "postgres://postgres@127.0.0.1:1/never-reached"
        let result = try runPipeline(["work", "--drain"], environment: environment, in: folder)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("queue.heartbeat (\(heartbeat))"), "\(result.standardError)")
        #expect(result.standardError.contains("queue.lease (\(lease))"), "\(result.standardError)")
    }

    /// Issue 14 item 13: usage errors exit 2 (docs/behaviour.md), not ArgumentParser's 64; help still exits 0.
    @Test(arguments: [
        ["ingest"], ["stats", "--since", "forever"], ["no-such-command"], ["retry", "--all", "3"],
        ["work", "--concurrency", "0"], ["show"], ["stats", "--since", "99999999999d"],
        ["export", "--format", "csv", "--since", "99999999999d"], ["recategorize", "--since", "99999999999d"],
        ["reprocess", "--since", "99999999999d", "--status", "needs_review"],
    ])
    func usageErrorsExitTwo(arguments: [String]) throws {
        let folder = try TestEnvironment.makeTemporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try runPipeline(arguments, environment: Self.cleanEnvironment, in: folder)
        #expect(result.status == 2, "pipeline \(arguments.joined(separator: " ")): \(result.standardError)")
        #expect(result.standardError.contains("Error:"), "\(result.standardError)")
    }

    /// Issue 37: a bad `review.listen` names the key, where it was set, and the form it takes, as every key does.
    @Test func aBadListenSettingNamesItsKeyAndSource() throws {
        let folder = try TestEnvironment.makeTemporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = Self.cleanEnvironment
        environment["PIPELINE_REVIEW_LISTEN"] = "127.0.0.1:99999"
        let fromEnvironment = try runPipeline(["review"], environment: environment, in: folder)
        try "review:\n  listen: nowhere\n".write(
            to: folder.appendingPathComponent("pipeline.yaml"), atomically: true, encoding: .utf8)
        let fromFile = try runPipeline(["review"], environment: Self.cleanEnvironment, in: folder)

        for result in [fromEnvironment, fromFile] {
            #expect(result.status == 2, "\(result.standardError)")
            #expect(result.standardError.contains("review.listen"), "\(result.standardError)")
            #expect(result.standardError.contains("0 to 65535"), "\(result.standardError)")
        }
        #expect(fromEnvironment.standardError.contains("PIPELINE_REVIEW_LISTEN"), "\(fromEnvironment.standardError)")
        #expect(fromFile.standardError.contains("pipeline.yaml"), "\(fromFile.standardError)")
    }

    @Test func helpExitsZero() throws {
        let result = try runPipeline(["ingest", "--help"], environment: Self.cleanEnvironment)
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("USAGE: pipeline ingest"))
    }

    /// Issue 14 item 9: outside the checkout (an empty folder, no migrations folder configured) the binary
    /// migrates from the files compiled into it.
    @Test func migrateWorksFromAnEmptyFolder() async throws {
        let folder = try TestEnvironment.makeTemporaryFolder("anywhere")
        defer { try? FileManager.default.removeItem(at: folder) }
        let expected = try Migrator(directory: TestDatabase.migrations).migrations().map(\.name)
        try await TestDatabase.withEmptyDatabase { url in
            var environment = Self.cleanEnvironment
            environment["DATABASE_URL"] = url
            let result = try runPipeline(["migrate"], environment: environment, in: folder)
            #expect(result.status == 0, "\(result.standardError)")
            let applied = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("applied 0") }
            #expect(applied.map { String($0.dropFirst("applied ".count)) } == expected, "\(result.standardOutput)")
        }
    }

    @Test func migrateTwiceAppliesNothingTheSecondTime() async throws {
        try await TestDatabase.withEmptyDatabase { url in
            var environment = Self.cleanEnvironment
            environment["DATABASE_URL"] = url
            environment["PIPELINE_DATABASE_MIGRATIONS"] = TestDatabase.migrations.path
            let first = try runPipeline(["migrate"], environment: environment)
            let second = try runPipeline(["migrate"], environment: environment)
            #expect(first.status == 0)
            #expect(first.standardOutput.contains("applied 0001_schema.sql"))
            #expect(second.status == 0)
            #expect(second.standardOutput.contains("schema is up to date: no migration to apply"))
        }
    }
}
