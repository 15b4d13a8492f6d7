import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// The review page in a real browser: headless Chromium (Debian's `chromium` and `chromium-driver`) driven over
/// WebDriver, against `pipeline review` on a throwaway database holding the 10 shipped receipts after a real run.
///
/// Set `PIPELINE_TEST_SCREENSHOTS` to a folder to keep screenshots of the queue, a receipt and the dashboard.
@Suite struct ReviewBrowserTests {
    @Test func aPersonClearsTheQueueFromThePageAloneAndTheReportShowsTheCorrection() async throws {
        let folder = try TestEnvironment.makeTemporaryFolder("browser")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestDatabase.withMigratedDatabase { connection, url in
            var environment = CommandLineTests.environment(database: url)
            environment["USER"] = "browser-tester"
            let images = try FileManager.default.contentsOfDirectory(atPath: TestEnvironment.receiptsFolder.path)
                .filter { !$0.hasSuffix(".json") }.map { TestEnvironment.receipt($0).path }
            let ingest = try runPipeline(["ingest"] + images, environment: environment)
            #expect(ingest.status == 0, "\(ingest.standardOutput)")
            let work = try runPipeline(["work", "--drain"], environment: environment)
            #expect(work.status == 0, "\(work.standardError)")
            let hostile = try await ReviewSeed.receipt(text: ReviewSeed.markupText, in: connection)
            let waiting = try await PostgresReviewStore(database: connection).queue(ReviewQueueQuery()).total
            #expect(waiting >= 2)
            let firstWaiting = try #require(
                try await connection.query(
                    "SELECT min(receipt_id) AS id FROM expenses WHERE status = 'needs_review'"
                ).first?.int("id"))

            let server = try BackgroundProcess(
                TestEnvironment.pipelineBinary, ["review", "--listen", "127.0.0.1:0"], environment: environment,
                folder: folder)
            try await WebDriver.withSession(
                against: server, address: /review page: (http:\/\/[0-9.:]+)\//, folder: folder
            ) {
                driver, address in
                let problems = try await driver.pagesThatDoNotFit(
                    [
                        "/queue", "/queue?reason=unbalanced", "/receipts/\(firstWaiting)", "/receipts/\(hostile)",
                        "/dashboard", "/dashboard?item=a", "/rules", "/receipts/999999",
                    ].map { address + $0 })
                #expect(problems.isEmpty, "every page fits a phone and a laptop: \(problems)")
                #expect(try await driver.element("#nav-upload") == nil, "pipeline review has no upload page")
                try await clearQueue(driver, address: address, hostile: hostile, waiting: waiting)
                try await checkReport(driver, address: address, connection: connection, environment: environment)
            }
        }
    }

    /// Opens the queue, corrects the oldest receipt's total with Enter, then accepts every other receipt with the
    /// `a` key, checking the markup receipt on the way; ends on the empty queue.
    private func clearQueue(_ driver: WebDriver, address: String, hostile: Int64, waiting: Int) async throws {
        try await driver.open(address + "/queue")
        let rows = try await driver.script("return document.querySelectorAll('#queue tbody tr').length") as? Int
        #expect(rows == waiting)
        try await keepScreenshot(driver, "queue")
        try await driver.click(try #require(try await driver.element("#next")))
        var url = try await driver.waitForURL { $0.contains("/receipts/") }
        let corrected = Int64(url.split(separator: "/").last ?? "") ?? 0

        try await driver.press("t")
        let focused = try await driver.script("return document.activeElement.id") as? String
        #expect(focused == "field-total", "the t key focuses the total")
        let total = try #require(try await driver.element("#field-total"))
        try await driver.clear(total)
        try await driver.type("12.34\u{E007}", into: total)
        url = try await driver.waitForURL { !$0.hasSuffix("/receipts/\(corrected)") }

        var accepted = 1
        while url.contains("/receipts/"), accepted <= waiting {
            if url.hasSuffix("/receipts/\(hostile)") { url = try await checkMarkupReceipt(driver) }
            let before = url
            try await driver.press("a")
            url = try await driver.waitForURL { $0 != before }
            accepted += 1
        }
        #expect(url.hasSuffix("/queue"))
        #expect(accepted == waiting, "every waiting receipt was seen once")
        #expect(try await driver.element("#empty") != nil, "the queue is empty")
        let audit = try await driverPageText(driver, "\(address)/receipts/\(corrected)", selector: "#audit")
        #expect(audit.contains("total"))
        #expect(audit.contains("12.34"))
        #expect(audit.contains("browser-tester (review page)"))
    }

    /// The receipt whose OCR text holds `<script>`: shown as text, never run; its total's line outlined on focus.
    /// Its misread line item is corrected first (Enter in an item saves and stays), and the checks follow it.
    /// - Returns: the page's address after the save.
    private func checkMarkupReceipt(_ driver: WebDriver) async throws -> String {
        let amount = try #require(try await driver.element("#item-1-amount"))
        try await driver.clear(amount)
        try await driver.type("9.99\u{E007}", into: amount)
        let url = try await driver.waitForURL { $0.hasSuffix("?notice=saved") }
        let checks = try await driver.script("return document.getElementById('checks').textContent") as? String
        #expect(checks?.contains("line items sum to 9.99, matching the printed total 9.99") == true)
        let text = try await driver.script("return document.getElementById('ocr-text').textContent") as? String
        #expect(text?.contains("<script>alert('owned')</script> & <b>Deli</b>") == true)
        let scripts = try await driver.script("return document.querySelectorAll('main script, main b').length") as? Int
        #expect(scripts == 0, "no markup from the receipt became elements")
        try await driver.press("t")
        let outlined = try await driver.script("return document.querySelectorAll('.box.active').length") as? Int
        #expect(outlined ?? 0 >= 1, "the total's evidence line is outlined on the image")
        try await keepScreenshot(driver, "receipt")
        try await driver.press("\u{E00C}")  // Escape leaves the field, so `a` accepts.
        return url
    }

    /// Accepted spending on the dashboard and in `pipeline report` includes the corrected total.
    private func checkReport(
        _ driver: WebDriver, address: String, connection: PostgresConnection, environment: [String: String]
    ) async throws {
        let accepted = try await connection.query(
            """
            SELECT count(*) FILTER (WHERE total IS NOT NULL) AS n, count(*) FILTER (WHERE total = 12.34) AS corrected
            FROM expenses WHERE status = 'accepted'
            """
        ).first
        #expect(try accepted?.int("corrected") == 1)
        let dashboard = try await driverPageText(driver, "\(address)/dashboard", selector: "main")
        #expect(dashboard.contains("Spend per month"))
        try await keepScreenshot(driver, "dashboard")
        let report = try runPipeline(["report", "--by", "merchant", "--json"], environment: environment)
        #expect(report.status == 0, "\(report.standardError)")
        let rows = try JSONSerialization.jsonObject(with: Data(report.standardOutput.utf8)) as? [[String: Any]] ?? []
        let expenses = rows.compactMap { $0["expenses"] as? Int }.reduce(0, +)
        #expect(expenses == (try accepted?.int("n") ?? -1), "every accepted expense with a total is in the report")
    }

    private func driverPageText(_ driver: WebDriver, _ url: String, selector: String) async throws -> String {
        try await driver.open(url)
        return try await driver.script("return document.querySelector('\(selector)').textContent") as? String ?? ""
    }

    private func keepScreenshot(_ driver: WebDriver, _ name: String) async throws {
        guard let folder = ProcessInfo.processInfo.environment["PIPELINE_TEST_SCREENSHOTS"] else { return }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try await driver.screenshot().write(
            to: URL(fileURLWithPath: folder).appendingPathComponent("review-\(name).png"))
    }
}
