import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// `pipeline db backup` and `pipeline db restore` for the embedded default: a backup restored into a fresh folder
/// holds every row of every table, images included.
@Suite struct BackupRestoreTests {
    @Test func aBackupRestoredIntoAFreshFolderHoldsEveryRow() async throws {
        let folder = try TestEnvironment.makeTemporaryFolder("backup")
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = folder.appendingPathComponent("original")
        let restored = folder.appendingPathComponent("restored")
        let inbox = folder.appendingPathComponent("inbox")
        for url in [original, restored, inbox] {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        }
        for name in ["sroie_006.jpg", "wr_13_10.jpeg"] {
            try FileManager.default.copyItem(at: TestEnvironment.receipt(name), to: inbox.appendingPathComponent(name))
        }
        var environment = CommandLineTests.cleanEnvironment
        environment["PIPELINE_INGEST_SETTLE_TIME"] = "0s"
        environment["USER"] = "carol"
        func pipeline(_ arguments: [String], in project: URL) throws -> ChildProcess.Result {
            try runPipeline(arguments, environment: environment, in: project)
        }
        defer {
            _ = try? pipeline(["db", "stop"], in: original)
            _ = try? pipeline(["db", "stop"], in: restored)
        }

        #expect(try pipeline(["ingest", inbox.path], in: original).status == 0)
        let work = try pipeline(["work", "--drain"], in: original)
        #expect(work.status == 0, "\(work.standardError)")
        let correct = try pipeline(["correct", "1", "--total", "9.99", "--merchant", "Corner Bakery"], in: original)
        #expect(correct.status == 0, "\(correct.standardError)")
        #expect(try pipeline(["reject", "2"], in: original).status == 0)
        let backupFile = folder.appendingPathComponent("receipts.backup")
        let backup = try pipeline(["db", "backup", backupFile.path], in: original)
        let restore = try pipeline(["db", "restore", backupFile.path], in: restored)
        let again = try pipeline(["db", "restore", backupFile.path], in: restored)

        #expect(backup.status == 0, "\(backup.standardError)")
        #expect(backup.standardOutput.contains(backupFile.path), "\(backup.standardOutput)")
        #expect(restore.status == 0, "\(restore.standardError)")
        #expect(again.status == 2, "a restore never writes over a cluster: \(again.standardError)")
        #expect(again.standardError.contains("empty folder"), "\(again.standardError)")

        let before = try await Self.contents(of: original)
        let after = try await Self.contents(of: restored)
        #expect(before.keys.sorted() == after.keys.sorted())
        for table in ["receipts", "expenses", "expense_items", "corrections", "jobs"] {
            #expect(before[table]?.isEmpty == false, "\(table) has rows to compare")
        }
        for (table, rows) in before { #expect(after[table] == rows, "\(table) differs after restore") }
    }

    /// Every table of the cluster's database, each row as text in a stable order (bytea as hex: images included).
    private static func contents(of project: URL) async throws -> [String: [String]] {
        let cluster = EmbeddedCluster(directory: project.appendingPathComponent(".pipeline"))
        let connection = try await PostgresConnection.connect(to: PostgresTarget(cluster.connectionString))
        do {
            let tables = try await connection.query(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename"
            ).compactMap { try $0.string("tablename") }
            var contents: [String: [String]] = [:]
            for table in tables {
                contents[table] = try await connection.query(
                    "SELECT t::text AS row FROM \(table) t ORDER BY t::text"
                ).compactMap { try $0.string("row") }
            }
            await connection.close()
            return contents
        } catch {
            await connection.close()
            throw error
        }
    }
}
