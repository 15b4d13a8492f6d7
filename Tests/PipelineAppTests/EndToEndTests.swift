import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// The product as operators meet it: real receipts and bad files → `ingest` → `work --drain` → expenses, against
/// a real database, through the built `pipeline` binary.
@Suite struct EndToEndTests {
    /// Three real receipts plus a bad file of each kind ingest can see or only decode can see.
    private func makeInbox() throws -> URL {
        let inbox = try TestEnvironment.makeTemporaryFolder("inbox")
        for name in ["sroie_006.jpg", "wr_33_15.jpeg", "sroie_035.jpg"] {
            try FileManager.default.copyItem(at: TestEnvironment.receipt(name), to: inbox.appendingPathComponent(name))
        }
        let jpeg = try Data(contentsOf: TestEnvironment.receipt("sroie_030.jpg"))
        try jpeg.prefix(jpeg.count / 3).write(to: inbox.appendingPathComponent("truncated.jpg"))
        try Data().write(to: inbox.appendingPathComponent("empty.jpg"))
        try Data("not an image at all\n".utf8).write(to: inbox.appendingPathComponent("notes.jpg"))
        try Data("%PDF-1.4\n1 0 obj\n<< /Type /Catalog".utf8).write(to: inbox.appendingPathComponent("invoice.pdf"))
        try Data("partial".utf8).write(to: inbox.appendingPathComponent(".hidden.jpg"))
        return inbox
    }

    private func environment(_ url: String) -> [String: String] {
        var environment = CommandLineTests.environment(database: url)
        environment["PIPELINE_QUEUE_BACKOFF_BASE"] = "100ms"
        return environment
    }

    @Test func folderOfReceiptsBecomesExpensesAndBadFilesAreReportedNotLost() async throws {
        let inbox = try makeInbox()
        defer { try? FileManager.default.removeItem(at: inbox) }
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = environment(url)
            let ingest = try runPipeline(["ingest", inbox.path], environment: environment)
            let again = try runPipeline(["ingest", "--json", inbox.path], environment: environment)
            let work = try runPipeline(["work", "--drain", "--concurrency", "2"], environment: environment)

            #expect(ingest.status == 1, "rejections make ingest exit 1")
            #expect(ingest.standardOutput.contains("stored 4 new, 0 duplicate, 3 rejected"), "\(ingest.standardOutput)")
            #expect(ingest.standardOutput.contains("empty.jpg"))
            #expect(ingest.standardOutput.contains("notes.jpg"))
            #expect(ingest.standardOutput.contains("invoice.pdf"))
            #expect(ingest.standardOutput.contains("damaged"))
            #expect(again.standardOutput.contains("\"duplicates\""))
            #expect(work.status == 1, "truncated.jpg went dead: \(work.standardError)")

            let expenses = try await connection.query(
                """
                SELECT r.original_name AS name, e.total::text AS total, e.status,
                       (SELECT count(*) FROM stage_timings t WHERE t.receipt_id = r.id AND t.outcome = 'ok') AS stages
                FROM expenses e JOIN receipts r ON r.id = e.receipt_id ORDER BY r.original_name
                """)
            let names = try expenses.map { try $0.string("name") ?? "" }
            #expect(names == ["sroie_006.jpg", "sroie_035.jpg", "wr_33_15.jpeg"])
            for row in expenses { #expect(try row.int("stages") ?? 0 >= 6, "every stage timed") }
            let label = try Data(contentsOf: TestEnvironment.receipt("sroie_006.json"))
            let expectedTotal = try #require(
                (try JSONSerialization.jsonObject(with: label) as? [String: Any])?["total"] as? String)
            #expect(try expenses.first?.string("total").map { Decimal(string: $0) } == Decimal(string: expectedTotal))

            let dead = try await connection.query(
                """
                SELECT r.original_name AS name, j.last_error FROM jobs j JOIN receipts r ON r.id = j.receipt_id
                WHERE j.state = 'dead'
                """)
            #expect(dead.count == 1)
            #expect(try dead.first?.string("name") == "truncated.jpg")
            #expect(try dead.first?.string("last_error")?.contains("truncated.jpg") == true)
            let jobs = try await connection.query("SELECT count(*) AS n FROM jobs WHERE state NOT IN ('done', 'dead')")
            #expect(try jobs.first?.int("n") == 0)

            let stats = try runPipeline(["stats"], environment: environment)
            #expect(stats.status == 0)
            #expect(stats.standardOutput.contains("receipts within the 3.0 s target"))
            #expect(stats.standardOutput.contains("ocr"))
            let export = try runPipeline(["export", "--format", "csv"], environment: environment)
            #expect(export.standardOutput.split(separator: "\n").count == 4, "header + 3 expenses")
            #expect(export.standardOutput.contains(",\(expectedTotal),"), "money exported with two decimals")
            // One decision: an exported expense waits for review exactly when it has a reason (issue 25).
            let lines = try runPipeline(["export", "--format", "jsonl"], environment: environment).standardOutput
            for line in lines.split(separator: "\n") {
                let row = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                let reasons = row["review_reasons"] as? String ?? ""
                #expect((row["status"] as? String == "needs_review") == !reasons.isEmpty, "\(row)")
            }
            let deadID = try await connection.query("SELECT receipt_id FROM jobs WHERE state = 'dead'").first?.int(
                "receipt_id")
            let show = try runPipeline(["show", "\(deadID ?? 0)"], environment: environment)
            #expect(show.standardOutput.contains("dead"))
            #expect(show.standardOutput.contains("last error"))
        }
    }

    @Test func twoConcurrentIngestsStoreEachImageOnce() async throws {
        let inbox = try makeInbox()
        defer { try? FileManager.default.removeItem(at: inbox) }
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = environment(url)
            async let first = Task.detached { try runPipeline(["ingest", inbox.path], environment: environment) }.value
            async let second = Task.detached { try runPipeline(["ingest", inbox.path], environment: environment) }.value
            let results = try await [first, second]
            #expect(results.allSatisfy { $0.status == 1 })
            let counts = try await connection.query(
                "SELECT (SELECT count(*) FROM receipts) AS receipts, (SELECT count(*) FROM jobs) AS jobs"
            ).first
            #expect(try counts?.int("receipts") == 4)
            #expect(try counts?.int("jobs") == 4)
        }
    }

    @Test func fileStillBeingWrittenIsLeftForTheNextRun() async throws {
        let inbox = try TestEnvironment.makeTemporaryFolder("inbox")
        defer { try? FileManager.default.removeItem(at: inbox) }
        let image = try Data(contentsOf: TestEnvironment.receipt("wr_33_15.jpeg"))
        let path = inbox.appendingPathComponent("arriving.jpeg")
        try await TestDatabase.withMigratedDatabase { connection, url in
            var environment = environment(url)
            environment["PIPELINE_INGEST_SETTLE_TIME"] = "2s"
            // A separate writer process appends the rest in 40 pieces over about 4 s, as a slow copy would, so the
            // file keeps changing through the whole 2 s settle time whatever the load on this process.
            let pieces = try TestEnvironment.makeTemporaryFolder("pieces")
            defer { try? FileManager.default.removeItem(at: pieces) }
            let step = max(1, (image.count - 1000) / 40)
            for (index, start) in stride(from: 1000, to: image.count, by: step).enumerated() {
                try image[start..<min(start + step, image.count)]
                    .write(to: pieces.appendingPathComponent(String(format: "%03d", index)))
            }
            // The first kilobyte lands just now: a file older than the settle time would rightly be taken at once.
            try image.prefix(1000).write(to: path)
            let writer = Process()
            writer.executableURL = URL(fileURLWithPath: "/bin/sh")
            writer.arguments = [
                "-c", "for piece in \"$1\"/*; do cat \"$piece\" >> \"$2\"; sleep 0.1; done", "writer",
                pieces.path, path.path,
            ]
            try writer.run()
            let during = try runPipeline(["ingest", inbox.path], environment: environment)
            let deadline = Date().addingTimeInterval(60)
            func size() -> Int { (try? FileManager.default.attributesOfItem(atPath: path.path)[.size] as? Int) ?? 0 }
            while size() < image.count && Date() < deadline { usleep(20_000) }
            environment["PIPELINE_INGEST_SETTLE_TIME"] = "0s"
            let after = try runPipeline(["ingest", inbox.path], environment: environment)

            #expect(during.standardOutput.contains("stored 0 new"), "\(during.standardOutput)")
            #expect(during.standardOutput.contains("waiting: \(path.path)"))
            #expect(after.standardOutput.contains("stored 1 new"))
            let stored = try await connection.query("SELECT byte_count FROM receipts").first?.int("byte_count")
            #expect(stored == image.count, "the complete file was stored, not a prefix")
        }
    }

    @Test func workerKilledMidRunLosesNothingAndCommitsEachReceiptOnce() async throws {
        let inbox = try TestEnvironment.makeTemporaryFolder("inbox")
        defer { try? FileManager.default.removeItem(at: inbox) }
        let names = [
            "sroie_006.jpg", "sroie_030.jpg", "sroie_035.jpg", "sroie_051.jpg", "wr_13_10.jpeg", "wr_58_20.jpeg",
        ]
        for name in names {
            try FileManager.default.copyItem(at: TestEnvironment.receipt(name), to: inbox.appendingPathComponent(name))
        }
        try await TestDatabase.withMigratedDatabase { connection, url in
            var environment = environment(url)
            environment["PIPELINE_QUEUE_LEASE"] = "3s"
            environment["PIPELINE_QUEUE_HEARTBEAT"] = "500ms"
            environment["PIPELINE_QUEUE_POLL_INTERVAL"] = "200ms"
            #expect(try runPipeline(["ingest", inbox.path], environment: environment).status == 0)

            // Two worker processes; the first is killed with SIGKILL while it holds a job.
            let victim = Process()
            victim.executableURL = TestEnvironment.pipelineBinary
            victim.arguments = ["work", "--concurrency", "1"]
            victim.environment = environment
            victim.standardOutput = FileHandle.nullDevice
            victim.standardError = FileHandle.nullDevice
            try victim.run()
            let deadline = Date().addingTimeInterval(60)
            var held = 0
            while held == 0 && Date() < deadline {
                usleep(50_000)
                held =
                    try await connection.query("SELECT count(*) AS n FROM jobs WHERE state = 'running'").first?.int("n")
                    ?? 0
            }
            #expect(held > 0, "the first worker claimed a job")
            kill(victim.processIdentifier, SIGKILL)
            let survivor = try runPipeline(["work", "--drain", "--concurrency", "2"], environment: environment)

            #expect(survivor.status == 0, "\(survivor.standardError)")
            let counts = try await connection.query(
                """
                SELECT (SELECT count(*) FROM expenses) AS expenses,
                       (SELECT count(DISTINCT receipt_id) FROM expenses) AS receipts,
                       (SELECT count(*) FROM jobs WHERE state = 'done') AS done
                """
            ).first
            #expect(try counts?.int("expenses") == names.count)
            #expect(try counts?.int("receipts") == names.count)
            #expect(try counts?.int("done") == names.count)
        }
    }
}
