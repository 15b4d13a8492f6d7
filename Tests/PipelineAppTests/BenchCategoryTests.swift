import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// `pipeline bench` scores the expense category a fixture's own label names when `bench/category-labels.tsv` has no
/// row for it, as the generated receipts' labels do (docs/categories.md, "Trade words").
@Suite struct BenchCategoryTests {
    @Test func aLabelsOwnCategoryIsScored() throws {
        let folder = try TestEnvironment.makeTemporaryFolder("bench-category")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixtures = folder.appendingPathComponent("fixtures")
        let cache = folder.appendingPathComponent("cache")
        let report = folder.appendingPathComponent("report")
        for directory in [fixtures, cache] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        try FileManager.default.copyItem(
            at: TestEnvironment.receipt("sroie_006.jpg"), to: fixtures.appendingPathComponent("sroie_006.jpg"))
        var label = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: TestEnvironment.receipt("sroie_006.json")))
                as? [String: Any])
        label["category"] = "Shopping"
        try JSONSerialization.data(withJSONObject: label).write(to: fixtures.appendingPathComponent("sroie_006.json"))
        // The page Tesseract read from it, as `--ocr-cache` stores it; the working folder has no category labels.
        try FileManager.default.copyItem(
            at: TestEnvironment.receiptsFolder.deletingLastPathComponent()
                .appendingPathComponent("RecordedPages/sroie_006.jpg.json"),
            to: cache.appendingPathComponent("sroie_006.jpg.json"))
        var environment = CommandLineTests.cleanEnvironment
        environment["PIPELINE_OCR_ENGINE"] = "tesseract"

        let bench = try runPipeline(
            ["bench", "--fixtures", fixtures.path, "--ocr-cache", cache.path, "--report-dir", report.path],
            environment: environment, in: folder)

        try #require(bench.status == 0, "\(bench.standardError)")
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: report.appendingPathComponent("bench.json")))
                as? [String: Any])
        let receipts = try #require(json["receipts"] as? [[String: Any]])
        let category = try #require(receipts.first?["category"] as? [String: Any])
        #expect(category["expected"] as? String == "Shopping", "\(category)")
        let categoryRow = bench.standardOutput.split(separator: "\n").first { $0.hasPrefix("category ") }
        #expect(categoryRow?.hasSuffix("(1/1)") == true, "\(categoryRow ?? "no category row")")
    }
}
