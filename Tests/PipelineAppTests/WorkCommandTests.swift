import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// `pipeline work --drain` as a nightly cron job sees it: its exit status and what it prints about dead jobs.
@Suite struct WorkCommandTests {
    @Test func drainExitsOneAndNamesTheReceiptsThatWentDead() async throws {
        let inbox = try TestEnvironment.makeTemporaryFolder("drain-dead")
        defer { try? FileManager.default.removeItem(at: inbox) }
        try FileManager.default.copyItem(
            at: TestEnvironment.receipt("sroie_006.jpg"), to: inbox.appendingPathComponent("sroie_006.jpg"))
        // JPEG magic bytes pass ingest; the decoder finds the data cut off: dead at its first attempt.
        let jpeg = try Data(contentsOf: TestEnvironment.receipt("sroie_030.jpg"))
        try jpeg.prefix(jpeg.count / 3).write(to: inbox.appendingPathComponent("truncated.jpg"))
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = CommandLineTests.environment(database: url)
            let ingest = try runPipeline(["ingest", inbox.path], environment: environment)
            #expect(ingest.status == 0, "\(ingest.standardError)")
            let work = try runPipeline(["work", "--drain"], environment: environment)
            let truncatedID = try #require(
                try await connection.query(
                    "SELECT id FROM receipts WHERE original_name = 'truncated.jpg'"
                ).first?.int("id"))

            #expect(work.status == 1, "\(work.standardError)")
            #expect(work.standardOutput.contains("1 done, 0 retried, 1 dead"), "\(work.standardOutput)")
            let deadLines = work.standardError.split(separator: "\n").filter { $0.hasPrefix("dead: ") }
            #expect(deadLines.count == 1, "\(work.standardError)")
            let expectedStart = "dead: decode: receipt \(truncatedID) (truncated.jpg): "
            #expect(deadLines.first?.hasPrefix(expectedStart) == true, "\(work.standardError)")
            #expect(deadLines.first?.contains("the job is dead") == true)
            #expect(work.standardError.contains("pipeline retry"))
            #expect(!work.standardError.contains("\r"), "no progress line when stderr is no terminal")
        }
    }

    /// On a terminal (`script` gives the command one), `work --drain` draws its progress: finished of queued, the
    /// rate, the time left and the failures so far.
    @Test func drainShowsProgressOnATerminal() async throws {
        let inbox = try TestEnvironment.makeTemporaryFolder("drain-progress")
        defer { try? FileManager.default.removeItem(at: inbox) }
        let jpeg = try Data(contentsOf: TestEnvironment.receipt("sroie_030.jpg"))
        for name in ["a.jpg", "b.jpg"] {
            try (jpeg.prefix(jpeg.count / 3) + Data(name.utf8)).write(to: inbox.appendingPathComponent(name))
        }
        try await TestDatabase.withMigratedDatabase { _, url in
            let environment = CommandLineTests.environment(database: url)
            _ = try runPipeline(["ingest", inbox.path], environment: environment)
            let command = "'\(TestEnvironment.pipelineBinary.path)' work --drain"
            let work = try ChildProcess.run(
                "/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], environment: environment,
                directory: inbox.path)
            #expect(work.standardOutput.contains("work 2/2"), "\(work.standardOutput)")
            #expect(work.standardOutput.contains("2 failed"), "\(work.standardOutput)")
            #expect(work.standardOutput.contains(/ETA \d+s/), "\(work.standardOutput)")
        }
    }

    /// `ingest` draws the same progress line as `work --drain` on a terminal (files done of found, the rate, the time
    /// left, the files rejected so far) and stays quiet when its output is no terminal.
    @Test func ingestShowsProgressOnATerminalAndNothingOtherwise() async throws {
        let inbox = try TestEnvironment.makeTemporaryFolder("ingest-progress")
        defer { try? FileManager.default.removeItem(at: inbox) }
        for name in ["sroie_006.jpg", "sroie_030.jpg"] {
            try FileManager.default.copyItem(at: TestEnvironment.receipt(name), to: inbox.appendingPathComponent(name))
        }
        try Data("Total 12.00\n".utf8).write(to: inbox.appendingPathComponent("notes.jpg"))
        try await TestDatabase.withMigratedDatabase { _, url in
            let environment = CommandLineTests.environment(database: url)
            let command = "'\(TestEnvironment.pipelineBinary.path)' ingest --dry-run '\(inbox.path)'"
            let terminal = try ChildProcess.run(
                "/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], environment: environment,
                directory: inbox.path)
            let piped = try runPipeline(["ingest", inbox.path], environment: environment)

            #expect(terminal.standardOutput.contains("ingested 3/3"), "\(terminal.standardOutput)")
            #expect(terminal.standardOutput.contains("1 failed"), "\(terminal.standardOutput)")
            #expect(terminal.standardOutput.contains(/ETA \d+s/), "\(terminal.standardOutput)")
            #expect(piped.standardOutput.contains("stored 2 new, 0 duplicate, 1 rejected"), "\(piped.standardOutput)")
            #expect(!piped.standardError.contains("\r") && !piped.standardError.contains("ingested 3/3"))
        }
    }

    /// `pipeline retry` takes the receipt id that `show` and the dead line print, not the job's id: job ids start
    /// at 101 here, so a command reading job ids would find no job.
    @Test func retryTakesTheReceiptIdOfADeadJob() async throws {
        let inbox = try TestEnvironment.makeTemporaryFolder("retry-receipt")
        defer { try? FileManager.default.removeItem(at: inbox) }
        let jpeg = try Data(contentsOf: TestEnvironment.receipt("sroie_030.jpg"))
        try jpeg.prefix(jpeg.count / 3).write(to: inbox.appendingPathComponent("truncated.jpg"))
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await connection.query("SELECT setval(pg_get_serial_sequence('jobs', 'id'), 100)")
            let environment = CommandLineTests.environment(database: url)
            _ = try runPipeline(["ingest", inbox.path], environment: environment)
            _ = try runPipeline(["work", "--drain"], environment: environment)
            let receiptID = try #require(try await connection.query("SELECT id FROM receipts").first?.int("id"))

            let show = try runPipeline(["show", "\(receiptID)"], environment: environment)
            #expect(show.standardOutput.contains("pipeline retry \(receiptID)"), "\(show.standardOutput)")
            let retry = try runPipeline(["retry", "\(receiptID)"], environment: environment)
            #expect(retry.status == 0, "\(retry.standardError)")
            #expect(retry.standardOutput.contains("re-queued 1 dead job"), "\(retry.standardOutput)")
            let state = try await connection.query("SELECT state::text AS state FROM jobs").first?.string("state")
            #expect(state == "ready")
            let again = try runPipeline(["retry", "\(receiptID)"], environment: environment)
            #expect(again.status == 1)
            #expect(again.standardError.contains("receipt \(receiptID) is ready, not dead"), "\(again.standardError)")
        }
    }
}
