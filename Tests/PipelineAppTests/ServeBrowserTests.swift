import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// `pipeline serve` as a household would use it: two receipts uploaded from the upload page in headless Chromium,
/// processed by the server's own two worker slots, one accepted on its review page; the probes and the metrics
/// answer, and `promtool check metrics` (Debian's `prometheus`) finds the exposition well formed and well named.
/// Then a cut-off photo is uploaded, fails, and is retried and deleted from its page.
@Suite struct ServeBrowserTests {
    private static let uploads = ["sroie_030.jpg", "wr_28_14.jpeg"]

    @Test func receiptsUploadedFromThePageAreProcessedAndOneIsAcceptedOnTheReviewPage() async throws {
        let folder = try TestEnvironment.makeTemporaryFolder("serve")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestDatabase.withMigratedDatabase { connection, url in
            var environment = CommandLineTests.cleanEnvironment
            environment["DATABASE_URL"] = url
            environment["PIPELINE_DATABASE_MIGRATIONS"] = TestDatabase.migrations.path
            environment["USER"] = "phone-user"
            let server = try BackgroundProcess(
                TestEnvironment.pipelineBinary, ["serve", "--listen", "127.0.0.1:0", "--workers", "2"],
                environment: environment, folder: folder)
            try await WebDriver.withSession(
                against: server, address: /pipeline serve: (http:\/\/[0-9.:]+)\//, folder: folder
            ) {
                driver, address in
                #expect(try get(address + "/healthz").body == "ok\n")
                let ids = try await upload(driver, address: address)
                #expect(try await driver.element("nav a#nav-upload[href='/upload']") != nil, "an Upload link")
                let problems = try await driver.pagesThatDoNotFit(
                    ["/upload", "/queue", "/receipts/\(ids.first ?? 0)", "/dashboard"].map { address + $0 })
                #expect(problems.isEmpty, "every page fits a phone and a laptop: \(problems)")
                try await acceptOne(driver, address: address, uploaded: ids, connection: connection)
                try checkProbes(address)
                try await retryAndDeleteAFailedUpload(driver, address: address, folder: folder, connection: connection)
            }
            #expect(server.output.contains("work: 2 done"), "the worker slots stop with the server: \(server.output)")
            #expect(server.output.contains(#/batch: \d+ done, 0 retried, 0 dead; this run: /#), "one line per batch")
        }
    }

    /// Picks both files in the upload form, waits for both to be stored and processed, then uploads one again.
    /// - Returns: the receipt ids the page linked.
    private func upload(_ driver: WebDriver, address: String) async throws -> [Int64] {
        try await driver.open(address + "/upload")
        let accept = try await driver.script("return document.getElementById('files').accept") as? String
        #expect(accept == "image/*,application/pdf")
        let paths = Self.uploads.map { TestEnvironment.receipt($0).path }
        try await driver.type(paths.joined(separator: "\n"), into: try #require(try await driver.element("#files")))
        try await driver.waitUntil(
            "return [...document.querySelectorAll('#uploads li')].filter(li => li.dataset.stage === 'done').length === 2",
            timeout: .seconds(180))
        let results =
            try await driver.script(
                "return [...document.querySelectorAll('#uploads li')].map(li => li.dataset.result)") as? [String]
        #expect(results == ["stored", "stored"])
        let links =
            try await driver.script(
                "return [...document.querySelectorAll('#uploads li a')].map(a => a.getAttribute('href'))") as? [String]
        let ids = (links ?? []).compactMap { Int64($0.split(separator: "/").last ?? "") }
        #expect(ids.count == 2)

        try await driver.type(paths[0], into: try #require(try await driver.element("#files")))
        try await driver.waitUntil("return document.querySelectorAll('#uploads li[data-result]').length === 3")
        let again =
            try await driver.script(
                "return document.querySelectorAll('#uploads li')[2].textContent") as? String ?? ""
        #expect(again.contains("duplicate") && again.contains("receipt \(ids.first ?? 0)"), "\(again)")
        return ids
    }

    /// Opens the review queue, takes the first uploaded receipt waiting there and accepts it with the `a` key.
    private func acceptOne(
        _ driver: WebDriver, address: String, uploaded: [Int64], connection: PostgresConnection
    ) async throws {
        let waiting = try await connection.query(
            "SELECT receipt_id FROM expenses WHERE status = 'needs_review' ORDER BY receipt_id")
        let id = try #require(
            try waiting.compactMap { try $0.int("receipt_id").map(Int64.init) }.first { uploaded.contains($0) },
            "one uploaded receipt needs review")
        try await driver.open(address + "/queue")
        let queued =
            try await driver.script(
                "return [...document.querySelectorAll('#queue tbody a')].map(a => a.textContent)") as? [String]
        #expect(queued?.contains(String(id)) == true)
        try await driver.open(address + "/receipts/\(id)")
        try await driver.press("a")
        _ = try await driver.waitForURL { !$0.hasSuffix("/receipts/\(id)") }
        let decided = try await connection.query(
            """
            SELECT e.status, c.corrected_by FROM expenses e
            JOIN corrections c ON c.receipt_id = e.receipt_id AND c.field = 'status' WHERE e.receipt_id = $1
            """, [id]
        ).first
        #expect(try decided?.string("status") == "accepted")
        #expect(try decided?.string("corrected_by") == "phone-user (review page)")
    }

    /// Uploads a JPEG cut off at a third, which the worker finds broken (dead at once); the upload's line says it
    /// failed and links the receipt, the queue lists it, its page says why; Retry queues it again (it fails again)
    /// and Delete, confirmed in the browser's dialog, removes it.
    private func retryAndDeleteAFailedUpload(
        _ driver: WebDriver, address: String, folder: URL, connection: PostgresConnection
    ) async throws {
        let jpeg = try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))
        let cut = folder.appendingPathComponent("cut-off.jpg")
        try jpeg.prefix(jpeg.count / 3).write(to: cut)
        try await driver.open(address + "/upload")
        try await driver.type(cut.path, into: try #require(try await driver.element("#files")))
        try await driver.waitUntil(
            "return document.querySelector('#uploads li[data-stage=failed]') !== null", timeout: .seconds(120))
        let line = try await driver.script("return document.querySelector('#uploads li').textContent") as? String
        #expect(line?.contains("failed: open the receipt") == true, "\(line ?? "")")
        let link = try await driver.script("return document.querySelector('#uploads li a').getAttribute('href')")
        let id = try #require(Int64((link as? String)?.split(separator: "/").last ?? ""))

        try await driver.open(address + "/queue")
        let listed = try await driver.script("return document.getElementById('failed').textContent") as? String
        #expect(listed?.contains("decode") == true, "\(listed ?? "")")
        try await driver.open(address + "/receipts/\(id)")
        let reason = try await driver.script("return document.getElementById('failure').textContent") as? String
        #expect(reason?.contains("cut-off.jpg") == true && reason?.contains("decode") == true, "\(reason ?? "")")
        let notDrawn =
            try await driver.script("return document.getElementById('not-drawn')?.textContent ?? null") as? String
        #expect(notDrawn?.contains("could not be drawn") == true, "said in words: \(notDrawn ?? "")")
        #expect(try await driver.element("img") == nil, "no image that the browser draws broken")
        let download = try await driver.script("return document.getElementById('download')?.href ?? null") as? String
        #expect(download == address + "/receipts/\(id)/image", "the stored file to download")
        let problems = try await driver.pagesThatDoNotFit([address + "/queue", address + "/receipts/\(id)"])
        #expect(problems.isEmpty, "the failed receipts' list and page fit: \(problems)")

        try await driver.click(try #require(try await driver.element("#retry")))
        _ = try await driver.waitForURL { $0.hasSuffix("/queue?retried=\(id)") }
        #expect(try await driver.element("#notice") != nil)
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            let state = try await connection.query("SELECT state FROM jobs WHERE receipt_id = $1", [id]).first
            if try state?.string("state") == "dead" { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        try await driver.open(address + "/receipts/\(id)")
        try await driver.click(try #require(try await driver.element("#delete")))
        try await driver.acceptAlert()
        _ = try await driver.waitForURL { $0.hasSuffix("/queue?deleted=\(id)") }
        let left = try await connection.query("SELECT count(*) AS n FROM receipts WHERE id = $1", [id]).first
        #expect(try left?.int("n") == 0, "the deleted receipt is gone")
    }

    /// `/readyz` says every check is ready; `/metrics` passes promtool and counts the two committed receipts.
    private func checkProbes(_ address: String) throws {
        let ready = try get(address + "/readyz")
        #expect(ready.status == 200, "\(ready.body)")
        #expect(
            ready.body.contains("ok database") && ready.body.contains("ok migrations") && ready.body.contains("ok ocr"))
        let metrics = try get(address + "/metrics")
        #expect(metrics.status == 200)
        let committed = metrics.body.split(separator: "\n").filter {
            $0.hasPrefix("pipeline_receipts_committed_total{")
        }.compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
        #expect(committed == 2, "\(metrics.body)")
        let lint = try ChildProcess.run(
            "/bin/sh", ["-c", "curl --silent --show-error \(address)/metrics | promtool check metrics"])
        #expect(lint.status == 0, "promtool: \(lint.standardOutput)\(lint.standardError)")
        #expect(lint.standardOutput.isEmpty && lint.standardError.isEmpty, "promtool: \(lint.standardError)")
    }

    private func get(_ url: String) throws -> (status: Int, body: String) {
        let result = try ChildProcess.run(
            "/usr/bin/curl", ["--silent", "--show-error", "--write-out", "\n%{http_code}", url])
        var lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.popLast() ?? "") ?? 0
        return (status, lines.joined(separator: "\n"))
    }
}
