import Foundation
import PostgresStore
import TestSupport
import Testing

/// `pipeline-bench ocr-bench`, run as a process on two shipped receipts (a scan read at its size and a small photo,
/// enlarged for Tesseract, that gets its header pass) with both engines taking turns.
@Suite("pipeline-bench ocr-bench")
struct OCRBenchCommandTests {
    @Test func measuresBothEnginesSideBySideAndDumpsEachEnginesText() throws {
        let folder = try TestEnvironment.makeTemporaryFolder("ocr-bench")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixtures = folder.appendingPathComponent("fixtures")
        let dump = folder.appendingPathComponent("text")
        try FileManager.default.createDirectory(at: fixtures, withIntermediateDirectories: true)
        for name in ["sroie_030.jpg", "sroie_030.json", "wr_33_15.jpeg", "wr_33_15.json"] {
            try FileManager.default.copyItem(
                at: TestEnvironment.receipt(name), to: fixtures.appendingPathComponent(name))
        }

        let output = try ChildProcess.run(
            TestEnvironment.benchmarksBinary.path,
            [
                "ocr-bench", "--fixtures", fixtures.path, "--engines", "tesseract,ppocr", "--slots", "1",
                "--dump-text", dump.path,
            ])

        #expect(output.status == 0, "\(output.standardError)")
        let report = output.standardOutput
        for engine in ["tesseract", "ppocr"] {
            #expect(report.contains("\n\(engine), 1 slot(s): "), "\(report)")
        }
        #expect(!report.contains(" 1 failed") && !report.contains(" 2 failed"), "\(report)")
        #expect(report.contains("CPU per receipt relative to tesseract, 1 slot(s):"), "\(report)")
        let qualityRows = report.split(separator: "\n").filter {
            ($0.hasPrefix("SROIE ") || $0.hasPrefix("WildReceipt ")) && $0.hasSuffix("  ppocr, 1 slot(s)")
        }
        #expect(qualityRows.count == 2, "one text-quality row per dataset for PP-OCR:\n\(report)")
        func text(_ engine: String, _ name: String) throws -> String {
            try String(contentsOf: dump.appendingPathComponent("\(engine)/\(name).txt"), encoding: .utf8)
        }
        #expect(!(try text("tesseract", "sroie_030")).contains("--- header pass ---"))
        let photo = try text("tesseract", "wr_33_15")
        let header = try #require(photo.components(separatedBy: "--- header pass ---").dropFirst().first)
        #expect(header.uppercased().contains("RED HAWK"), "header pass text:\(header)")
        let ppocrPhoto = try text("ppocr", "wr_33_15")
        #expect(ppocrPhoto.contains("RED HAWK") && !ppocrPhoto.contains("--- header pass ---"), "\(ppocrPhoto)")
    }
}
