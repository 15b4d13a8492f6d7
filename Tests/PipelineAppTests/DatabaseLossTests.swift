import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// The database going away in the middle of a command (issue 14 item 15).
@Suite struct DatabaseLossTests {
    @Test func databaseLostMidIngestExitsThreeSayingWhatWasStored() async throws {
        let inbox = try TestEnvironment.makeTemporaryFolder("inbox")
        defer { try? FileManager.default.removeItem(at: inbox) }
        // Distinct files that pass ingest's checks (a PNG signature is all it reads); one per transaction.
        for index in 0..<1500 {
            let bytes = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array("receipt \(index)".utf8)
            try Data(bytes).write(to: inbox.appendingPathComponent(String(format: "r%04d.png", index)))
        }
        try await TestDatabase.withMigratedDatabase { connection, url in
            var environment = CommandLineTests.environment(database: url)
            environment["PIPELINE_INGEST_BATCH_SIZE"] = "1"
            let ingest = Task.detached { try runPipeline(["ingest", inbox.path], environment: environment) }

            // Cut the ingest's connection once it has stored something.
            var stored = 0
            while stored == 0 {
                try await Task.sleep(for: .milliseconds(10))
                stored = try await connection.query("SELECT count(*) AS n FROM receipts").first?.int("n") ?? 0
            }
            try await connection.query(
                """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE datname = current_database() AND pid <> pg_backend_pid()
                """)
            let result = try await ingest.value
            let rows = try await connection.query("SELECT count(*) AS n FROM receipts").first?.int("n") ?? -1

            #expect(result.status == 3, "\(result.standardOutput)\n\(result.standardError)")
            let summary = try #require(
                result.standardOutput.split(separator: "\n").first { $0.hasPrefix("stored ") },
                "\(result.standardOutput)")
            let reported = Int(summary.dropFirst("stored ".count).prefix { $0.isNumber }) ?? -1
            #expect(reported > 0 && reported < 1500, "\(summary)")
            // The batch in flight when the connection died may have committed without the answer arriving.
            #expect(rows == reported || rows == reported + 1, "reported \(reported), stored \(rows)")
            let message = "the database was lost after \(reported) new image(s) were stored"
            #expect(result.standardError.contains(message), "\(result.standardError)")
            #expect(result.standardError.contains("Run the same ingest again"))
        }
    }
}
