import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// `pipeline work` on real receipts, stopped by SIGTERM while OCR runs: the engines must outlive every
/// recognition, so the process exits 0 instead of crashing (issue 14, item 1).
@Suite("Work shutdown during OCR", .timeLimit(.minutes(3)))
struct WorkShutdownTests {
    /// The shipped receipts, copied into a fresh inbox.
    private func makeInbox() throws -> URL {
        let inbox = try TestEnvironment.makeTemporaryFolder("shutdown-inbox")
        let images = try FileManager.default.contentsOfDirectory(atPath: TestEnvironment.receiptsFolder.path)
            .filter { !$0.hasSuffix(".json") }
        for name in images {
            try FileManager.default.copyItem(at: TestEnvironment.receipt(name), to: inbox.appendingPathComponent(name))
        }
        return inbox
    }

    @Test("SIGTERM (and a second one) with no grace while receipts are in OCR: exit 0, no crash, no lease left")
    func stopDuringOCR() async throws {
        let inbox = try makeInbox()
        let folder = try TestEnvironment.makeTemporaryFolder("shutdown")
        defer {
            try? FileManager.default.removeItem(at: inbox)
            try? FileManager.default.removeItem(at: folder)
        }
        // Each round: a fresh database, ingest, `work --drain` stopped once OCR runs; odd rounds send a second
        // SIGTERM while the first is being handled.
        for round in 0..<6 {
            try await TestDatabase.withMigratedDatabase { connection, url in
                let environment = [
                    "DATABASE_URL": url, "PIPELINE_DATABASE_MIGRATIONS": TestDatabase.migrations.path,
                    "PIPELINE_INGEST_SETTLE_TIME": "0s", "PIPELINE_WORKERS_SHUTDOWN_GRACE": "0s",
                ]
                let ingest = try runPipeline(
                    ["ingest", inbox.path],
                    environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
                #expect(ingest.status == 0, "\(ingest.standardError)")
                let database = QueueDatabase(connection: connection)
                let worker = try WorkerProcess(
                    command: ["work", "--drain", "--concurrency", "2"], environment: environment, folder: folder)
                try await waitUntil("two receipts are in the worker") { try await database.count(.running) == 2 }
                // Into the recognition itself: loading and decoding take the first few hundred milliseconds.
                try await Task.sleep(for: .milliseconds(300 + 150 * round))
                worker.send(SIGTERM)
                if round % 2 == 1 { worker.send(SIGTERM) }
                let status = try await worker.waitForExit()
                #expect(worker.exitedNormally, "round \(round): killed by signal \(status)\n\(worker.output)")
                #expect(status == 0, "round \(round)\n\(worker.output)")
                #expect(try await database.leased() == 0, "round \(round): every lease released")
            }
        }
    }
}
