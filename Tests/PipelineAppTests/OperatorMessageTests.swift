import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// What the CLI says when the operator meets a bad path, an odd file name, an unmigrated database or a wrong id
/// (issue 14 item 7), through the built `pipeline` binary against a real database.
@Suite struct OperatorMessageTests {
    @Test func danglingSymlinkIsNamedAsOne() async throws {
        let inbox = try TestEnvironment.makeTemporaryFolder("inbox")
        defer { try? FileManager.default.removeItem(at: inbox) }
        try FileManager.default.createSymbolicLink(
            atPath: inbox.appendingPathComponent("gone.jpg").path, withDestinationPath: "/nonexistent/receipt.jpg")
        try await TestDatabase.withEmptyDatabase { url in
            let ingest = try runPipeline(
                ["ingest", inbox.path], environment: CommandLineTests.environment(database: url))
            #expect(ingest.status == 1)
            #expect(
                ingest.standardOutput.contains(
                    "gone.jpg: a dangling symlink: it points to /nonexistent/receipt.jpg, which does not exist"),
                "\(ingest.standardOutput)")
            #expect(!ingest.standardOutput.contains("empty"), "\(ingest.standardOutput)")
        }
    }

    @Test func twoLinksToEachOtherAreNamedALoopNotDangling() async throws {
        let inbox = try TestEnvironment.makeTemporaryFolder("inbox")
        defer { try? FileManager.default.removeItem(at: inbox) }
        try FileManager.default.createSymbolicLink(
            atPath: inbox.appendingPathComponent("a.jpg").path, withDestinationPath: "b.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: inbox.appendingPathComponent("b.jpg").path, withDestinationPath: "a.jpg")
        try await TestDatabase.withEmptyDatabase { url in
            let ingest = try runPipeline(
                ["ingest", inbox.path], environment: CommandLineTests.environment(database: url))
            let rejected = ingest.standardOutput.split(separator: "\n").filter { $0.hasPrefix("rejected:") }
            #expect(ingest.status == 1)
            #expect(rejected.count == 2, "\(ingest.standardOutput)")
            #expect(rejected.allSatisfy { $0.contains("symlink loop") }, "\(ingest.standardOutput)")
            #expect(!ingest.standardOutput.contains("dangling"), "\(ingest.standardOutput)")
        }
    }

    @Test func controlCharactersInFileNamesAreEscapedWhereverNamesArePrinted() async throws {
        let inbox = try TestEnvironment.makeTemporaryFolder("inbox")
        defer { try? FileManager.default.removeItem(at: inbox) }
        try Data("not an image\n".utf8).write(to: inbox.appendingPathComponent("a\nrejected: forged.jpg"))
        try FileManager.default.copyItem(
            at: TestEnvironment.receipt("sroie_006.jpg"), to: inbox.appendingPathComponent("tab\there\r.jpg"))
        try await TestDatabase.withEmptyDatabase { url in
            let environment = CommandLineTests.environment(database: url)
            let ingest = try runPipeline(["ingest", inbox.path], environment: environment)
            let show = try runPipeline(["show", "1"], environment: environment)

            let rejectedLines = ingest.standardOutput.split(separator: "\n").filter { $0.hasPrefix("rejected:") }
            #expect(rejectedLines.count == 1, "\(ingest.standardOutput)")
            #expect(rejectedLines.first?.contains("a\\x0Arejected: forged.jpg") == true, "\(ingest.standardOutput)")
            #expect(show.status == 0, "\(show.standardError)")
            #expect(show.standardOutput.contains("tab\\x09here\\x0D.jpg"), "\(show.standardOutput)")
            #expect(!show.standardOutput.contains("\t") && !show.standardOutput.contains("\r"))
        }
    }

    @Test(arguments: [["stats"], ["show", "1"], ["export", "--format", "csv"]])
    func unmigratedDatabaseSaysToMigrate(arguments: [String]) async throws {
        try await TestDatabase.withEmptyDatabase { url in
            let result = try runPipeline(arguments, environment: CommandLineTests.environment(database: url))
            #expect(result.status == 2, "\(result.standardError)")
            #expect(result.standardError.contains("run pipeline migrate"), "\(result.standardError)")
        }
    }

    @Test func statsPrintsEachFailureOnOneLine() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            try await connection.query(
                """
                INSERT INTO stage_timings (stage, attempt, started_at, duration_ms, outcome, detail)
                VALUES ('commit', 1, now(), 3, 'retry', E'commit: no connection to the server\\n\\tserver closed the connection')
                """)
            let stats = try runPipeline(["stats"], environment: CommandLineTests.environment(database: url))
            #expect(stats.status == 0, "\(stats.standardError)")
            let lines = stats.standardOutput.split(separator: "\n")
            let failure = lines.first { $0.contains("no connection to the server") }
            #expect(
                failure?.hasSuffix("no connection to the server server closed the connection") == true,
                "\(stats.standardOutput)")
        }
    }

    @Test func showOfSomethingThatIsNoReceiptReferenceSaysWhatItWants() throws {
        let folder = try TestEnvironment.makeTemporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try runPipeline(["show", "abc"], environment: CommandLineTests.cleanEnvironment, in: folder)
        #expect(result.status == 2)
        #expect(result.standardError.contains("'abc' is neither a receipt id"), "\(result.standardError)")
        #expect(!result.standardError.contains("SQLSTATE"))
    }

    @Test func retryOfAReceiptWithoutJobNamesItAndExitsOne() async throws {
        try await TestDatabase.withMigratedDatabase { _, url in
            let result = try runPipeline(["retry", "999"], environment: CommandLineTests.environment(database: url))
            #expect(result.status == 1)
            #expect(result.standardError.contains("receipt 999 has no job"), "\(result.standardError)")
        }
    }
}
