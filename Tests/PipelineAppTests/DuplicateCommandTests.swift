import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// A possible duplicate through the commands a person uses: `show` names the receipt it may repeat by its receipt
/// id (the id every command takes), and `accept` warns before counting both.
@Suite struct DuplicateCommandTests {
    @Test func showNamesTheEarlierReceiptAndAcceptWarns() async throws {
        let folder = try TestEnvironment.makeTemporaryFolder("duplicate-commands")
        defer { try? FileManager.default.removeItem(at: folder) }
        let inbox = folder.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let jpeg = try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))
        try jpeg.write(to: inbox.appendingPathComponent("a-first.jpg"))
        let copy = ReceiptCopies.resaved(jpeg, comment: "saved again")
        try copy.write(to: inbox.appendingPathComponent("b-copy.jpg"))
        try await TestDatabase.withMigratedDatabase { connection, url in
            var environment = CommandLineTests.cleanEnvironment
            environment["DATABASE_URL"] = url
            environment["PIPELINE_INGEST_SETTLE_TIME"] = "0s"
            environment["PIPELINE_OCR_ENGINE"] = "tesseract"
            func pipeline(_ arguments: [String]) throws -> ChildProcess.Result {
                try runPipeline(arguments, environment: environment, in: folder)
            }
            #expect(try pipeline(["ingest", inbox.path]).status == 0)
            // One at a time, so the copy is committed after the first.
            let work = try pipeline(["work", "--drain", "--concurrency", "1"])
            try #require(work.status == 0, "\(work.standardError)")
            let ids = try await connection.query("SELECT id FROM receipts ORDER BY original_name")
                .map { try $0.requiredID("id") }
            try #require(ids.count == 2)

            let show = try pipeline(["show", String(ids[1])])
            let accept = try pipeline(["accept", String(ids[1])])

            #expect(show.standardOutput.contains("possible duplicate of receipt \(ids[0])"), "\(show.standardOutput)")
            #expect(accept.status == 0, "\(accept.standardError)")
            #expect(
                accept.standardError.contains("warning: receipt \(ids[1]) may repeat receipt \(ids[0])"),
                "\(accept.standardError)")
        }
    }
}
