import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// A PDF of several pages through the built `pipeline`: split into receipts by what its pages hold, each receipt
/// an expense, and a receipt of too many pages never accepted.
@Suite struct ScannerBatchTests {
    private static func environment(_ url: String) -> [String: String] {
        var environment = CommandLineTests.environment(database: url)
        environment["PIPELINE_OCR_ENGINE"] = "tesseract"
        return environment
    }

    @Test func aScannedBatchOfThreeReceiptsBecomesThreeExpensesAndContinuedPagesStayOne() async throws {
        let inbox = try TestEnvironment.makeTemporaryFolder("batches")
        defer { try? FileManager.default.removeItem(at: inbox) }
        let scans = ["sroie_006.jpg", "sroie_030.jpg", "sroie_051.jpg"]
        try TestFiles.scannedPDF(pages: scans).write(to: inbox.appendingPathComponent("batch.pdf"))
        // One receipt over two pages: the header, date and first items, then more items and the total.
        try TestPDF.document([
            TestPDF.receiptPage(
                merchant: "CORNER BAKERY",
                lines: [("Date: 24/11/2026", "10:42"), ("", ""), ("SOURDOUGH", "4.20"), ("CROISSANT", "1.80")]),
            TestPDF.continuationPage(items: [("COFFEE", "3.10"), ("MUFFIN", "2.40")], total: "11.50"),
        ]).write(to: inbox.appendingPathComponent("continued.pdf"))

        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = Self.environment(url)
            let ingest = try runPipeline(["ingest", inbox.path], environment: environment)
            #expect(ingest.status == 0, "\(ingest.standardOutput)\(ingest.standardError)")
            #expect(
                ingest.standardOutput.contains("split: \(inbox.path)/batch.pdf: 3 receipts from 3 pages"),
                "\(ingest.standardOutput)")
            #expect(
                ingest.standardOutput.contains("split: \(inbox.path)/continued.pdf: 1 receipt from 2 pages"),
                "\(ingest.standardOutput)")
            let work = try runPipeline(["work", "--drain"], environment: environment)
            #expect(work.status == 0, "\(work.standardError)")

            let rows = try await connection.query(
                """
                SELECT r.original_name AS name, money_text(e.total) AS total, e.expense_date::text AS date
                FROM expenses e JOIN receipts r ON r.id = e.receipt_id ORDER BY r.original_name
                """)
            let found = try rows.map {
                [try $0.string("name") ?? "", try $0.string("total") ?? "-", try $0.string("date") ?? "-"]
            }
            let labels = try scans.map { try ReceiptLabel.of($0) }
            #expect(
                found == [
                    ["batch.pdf#page=1", labels[0].total ?? "", labels[0].date ?? ""],
                    ["batch.pdf#page=2", labels[1].total ?? "", labels[1].date ?? ""],
                    ["batch.pdf#page=3", labels[2].total ?? "", labels[2].date ?? ""],
                    ["continued.pdf", "11.50", "2026-11-24"],
                ], "\(found)")
        }
    }

    /// Ingest reads a batch's scanned pages to split it; the worker reads them no more: each receipt keeps the page
    /// ingest read (by the configured engine), and the worker's `ocr` stage reuses it, decoding the PDF only for its
    /// layout and review copy.
    @Test func theWorkerReusesThePagesIngestReadInsteadOfReadingThemAgain() async throws {
        let inbox = try TestEnvironment.makeTemporaryFolder("reused")
        defer { try? FileManager.default.removeItem(at: inbox) }
        let scans = ["sroie_006.jpg", "sroie_030.jpg"]
        try TestFiles.scannedPDF(pages: scans).write(to: inbox.appendingPathComponent("batch.pdf"))

        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = Self.environment(url)
            let ingest = try runPipeline(["ingest", inbox.path], environment: environment)
            #expect(ingest.status == 0, "\(ingest.standardOutput)\(ingest.standardError)")
            let kept = try await connection.query(
                """
                SELECT original_name AS name, ocr_page_made_by AS engine, ocr_page::text LIKE '%"text"%' AS has_text
                FROM receipts ORDER BY original_name
                """)
            #expect(
                try kept.map {
                    "\(try $0.string("name") ?? "-") \(try $0.string("engine") ?? "-") \(try $0.bool("has_text") == true)"
                }
                    == ["batch.pdf#page=1 tesseract true", "batch.pdf#page=2 tesseract true"],
                "each receipt keeps the page ingest read")

            let work = try runPipeline(["work", "--drain"], environment: environment)
            #expect(work.status == 0, "\(work.standardError)")
            let timings = try await connection.query(
                """
                SELECT r.original_name AS name, t.stage, t.detail FROM stage_timings t JOIN receipts r ON r.id = t.receipt_id
                WHERE t.stage IN ('decode', 'ocr') ORDER BY r.original_name, t.stage
                """)
            let reused = "reused the page read before (tesseract)"
            #expect(
                try timings.map { [try $0.string("name"), try $0.string("stage"), try $0.string("detail")] } == [
                    ["batch.pdf#page=1", "decode", nil], ["batch.pdf#page=1", "ocr", reused],
                    ["batch.pdf#page=2", "decode", nil], ["batch.pdf#page=2", "ocr", reused],
                ], "decoded for the layout and review copy, not read again")
            let expenses = try await connection.query(
                """
                SELECT money_text(e.total) AS total, r.rendered_page IS NOT NULL AS has_copy
                FROM expenses e JOIN receipts r ON r.id = e.receipt_id ORDER BY r.original_name
                """)
            let labels = try scans.map { try ReceiptLabel.of($0) }
            #expect(try expenses.map { try $0.string("total") } == labels.map(\.total))
            #expect(try expenses.allSatisfy { try $0.bool("has_copy") == true }, "the review copy is still made")
        }
    }

    /// A page with a total of its own but no header (a slip whose top was cut off) joins the receipt before it: the
    /// receipt waits for a person for that alone, with a finding naming the page, though the same receipt without
    /// the slip is accepted. Each file goes into a database of its own, so neither is the other's duplicate.
    @Test func aJoinedPageWithATotalOfItsOwnHoldsTheReceiptForReview() async throws {
        let label = try ReceiptLabel.of("sroie_006.jpg")
        let receipt = TestPDF.receiptPage(for: label, rawDate: "11/01/2019")
        let slip = TestPDF.continuationPage(items: [], total: "5.50")
        let alone = try await Self.expense(of: TestPDF.document([receipt]), named: "alone.pdf", pages: 1)
        let joined = try await Self.expense(of: TestPDF.document([receipt, slip]), named: "joined.pdf", pages: 2)

        #expect(alone.status == "accepted", "the receipt alone is accepted: \(alone)")
        #expect(joined.status == "needs_review", "\(joined)")
        #expect(joined.reasons == "page_total_differs", "held for the joined page alone: \(joined)")
        // Whichever total the receipt took, the other page's is named.
        let named =
            joined.total == "5.50"
            ? "page 1 of 2 prints its own total \(label.total ?? "")" : "page 2 of 2 prints its own total 5.50"
        #expect(joined.findings.contains(named), "the finding names the page: \(joined.findings)")
    }

    /// The expense `pipeline ingest` and `work --drain` make of one PDF of `pages` pages (one receipt), in a
    /// database of its own.
    private static func expense(of pdf: Data, named name: String, pages: Int) async throws
        -> (status: String, total: String, reasons: String, findings: String)
    {
        let inbox = try TestEnvironment.makeTemporaryFolder("joined")
        defer { try? FileManager.default.removeItem(at: inbox) }
        let file = inbox.appendingPathComponent(name)
        try pdf.write(to: file)
        return try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = Self.environment(url)
            let ingest = try runPipeline(["ingest", file.path], environment: environment)
            #expect(ingest.status == 0, "\(ingest.standardOutput)\(ingest.standardError)")
            if pages > 1 {
                #expect(
                    ingest.standardOutput.contains("split: \(file.path): 1 receipt from \(pages) pages"),
                    "\(ingest.standardOutput)")
            }
            let work = try runPipeline(["work", "--drain"], environment: environment)
            #expect(work.status == 0, "\(work.standardError)")
            let row = try #require(
                try await connection.query(
                    """
                    SELECT e.status, money_text(e.total) AS total, array_to_string(e.review_reasons, ',') AS reasons,
                           e.findings::text AS findings
                    FROM expenses e JOIN receipts r ON r.id = e.receipt_id
                    """
                ).first, "\(name) became no expense")
            return (
                try row.string("status") ?? "", try row.string("total") ?? "-", try row.string("reasons") ?? "",
                try row.string("findings") ?? ""
            )
        }
    }

    @Test func aLongPDFIsNeverAcceptedAsOneReceipt() async throws {
        let inbox = try TestEnvironment.makeTemporaryFolder("long-pdf")
        defer { try? FileManager.default.removeItem(at: inbox) }
        // 50 pages no one of which after the first has a header of its own: one receipt, too long to trust.
        let items = Array(repeating: ("ITEM", "1.00"), count: 3)
        var pages = [
            TestPDF.receiptPage(merchant: "CORNER BAKERY", lines: [("Date: 24/11/2026", "10:42"), ("", "")] + items)
        ]
        pages += (2...49).map { _ in TestPDF.continuationPage(items: items, total: nil) }
        pages.append(TestPDF.continuationPage(items: items, total: "150.00"))
        try TestPDF.document(pages).write(to: inbox.appendingPathComponent("long.pdf"))
        // 50 receipts of a page each: 50 receipts.
        let batch = (1...50).map { number in
            TestPDF.receiptPage(
                merchant: "SHOP \(number)",
                lines: [("Date: 24/11/2026", "10:42"), ("", ""), ("GOODS", "\(number).00"), ("TOTAL", "\(number).00")])
        }
        try TestPDF.document(batch).write(to: inbox.appendingPathComponent("batch50.pdf"))

        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = Self.environment(url)
            let long = inbox.appendingPathComponent("long.pdf").path
            let ingest = try runPipeline(["ingest", long], environment: environment)
            #expect(ingest.status == 0, "\(ingest.standardOutput)\(ingest.standardError)")
            #expect(
                ingest.standardOutput.contains("split: \(long): 1 receipt from 50 pages"), "\(ingest.standardOutput)")
            let work = try runPipeline(["work", "--drain"], environment: environment)
            #expect(work.status == 0, "\(work.standardError)")
            let rows = try await connection.query(
                """
                SELECT e.status, e.findings::text AS findings FROM expenses e JOIN receipts r ON r.id = e.receipt_id
                WHERE r.original_name = 'long.pdf'
                """)
            let expense = try #require(rows.first)
            #expect(try expense.string("status") == "needs_review")
            let findings = try expense.string("findings") ?? ""
            #expect(findings.contains("too_many_pages") && findings.contains("50 pages"), "\(findings)")

            let batch = inbox.appendingPathComponent("batch50.pdf").path
            let batchIngest = try runPipeline(["ingest", batch], environment: environment)
            #expect(
                batchIngest.standardOutput.contains("split: \(batch): 50 receipts from 50 pages"),
                "\(batchIngest.standardOutput)")
            let stored = try await connection.query(
                "SELECT count(*) AS n FROM receipts WHERE original_name LIKE 'batch50.pdf#page=%'")
            #expect(try stored.first?.int("n") == 50)
        }
    }
}
