import Foundation
import PostgresStore
import TestSupport
import Testing

/// `pipeline-bench ocr-bench`, run as a process on two shipped receipts: a scan read at its size and a small photo, enlarged
/// for OCR, that gets the header pass.
@Suite("pipeline-bench ocr-bench")
struct OCRBenchCommandTests {
    @Test func measuresBothReceiptsAndDumpsTheHeaderPassOfThePhotoOnly() throws {
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
            ["ocr-bench", "--fixtures", fixtures.path, "--slots", "1", "--dump-text", dump.path])

        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("in-process, 1 slot(s):"))
        #expect(output.standardOutput.contains("0 failed"))
        #expect(output.standardOutput.contains("text quality"))
        let scan = try String(contentsOf: dump.appendingPathComponent("sroie_030.txt"), encoding: .utf8)
        let photo = try String(contentsOf: dump.appendingPathComponent("wr_33_15.txt"), encoding: .utf8)
        #expect(!scan.contains("--- header pass ---"))
        let header = try #require(photo.components(separatedBy: "--- header pass ---").dropFirst().first)
        #expect(header.uppercased().contains("RED HAWK"), "header pass text:\(header)")
    }
}
