import Foundation
import PipelineCore
import ReceiptImage
import ReceiptReading
import TestSupport
import Testing

/// Measures issue 27's targets (`docs/benchmarks.md`, "Input kinds") on the ten shipped receipts: each receipt as its
/// JPEG, as a HEIC made from it and as a scanned PDF wrapping it, read by Tesseract (key fields against the label);
/// and a born-digital PDF laid out from its label, timed from file to draft (text layer, LLM copy, extraction).
/// Figures are printed, not asserted; the assertion is that the other kinds read no fewer fields than the JPEG.
/// Run: `scripts/test --filter InputKindsBenchmark`.
@Suite("Input kinds (benchmark)", .serialized)
struct InputKindsBenchmark {
    static let receipts = [
        "sroie_006.jpg", "sroie_030.jpg", "sroie_035.jpg", "sroie_051.jpg", "sroie_057.jpg", "wr_13_10.jpeg",
        "wr_28_14.jpeg", "wr_33_15.jpeg", "wr_58_20.jpeg", "wr_89_9.jpeg",
    ]

    /// Key fields (total, date, merchant fuzzily) of `draft` that match the label.
    private func fieldsRight(_ draft: ExpenseDraft, _ label: ReceiptLabel) -> Int {
        var right = 0
        if let total = label.total, draft.total?.value == Decimal(string: total) { right += 1 }
        if let date = label.date, draft.date?.value.description == date { right += 1 }
        if let merchant = label.merchant, let read = draft.merchant?.value,
            TextSimilarity.similarity(read, merchant) >= 0.8
        {
            right += 1
        }
        return right
    }

    @Test func heicAndScannedPDFReadAsWellAsTheJPEG() async throws {
        var right: [String: Int] = ["jpeg": 0, "heic": 0, "scanned-pdf": 0]
        var seconds: [String: [Double]] = [:]
        try await ReceiptFiles.withReader { reader in
            for name in Self.receipts {
                let label = try ReceiptLabel.of(name)
                let kinds: [(String, Data)] = [
                    ("jpeg", try Data(contentsOf: TestEnvironment.receipt(name))), ("heic", try TestFiles.heic(name)),
                    ("scanned-pdf", try TestFiles.scannedPDF(name)),
                ]
                for (kind, bytes) in kinds {
                    let start = ContinuousClock.now
                    let read = try await reader.process(bytes, file: "\(name) (\(kind))")
                    seconds[kind, default: []].append((ContinuousClock.now - start).seconds)
                    right[kind, default: 0] += fieldsRight(ReceiptExtractor.extract(read.page), label)
                }
            }
        }
        for kind in ["jpeg", "heic", "scanned-pdf"] {
            let times = (seconds[kind] ?? []).sorted()
            print(
                "input kinds: \(kind): \(right[kind] ?? 0)/\(3 * Self.receipts.count) key fields right, "
                    + "median \(String(format: "%.2f", times[times.count / 2])) s per receipt (Tesseract)")
        }
        #expect((right["heic"] ?? 0) >= (right["jpeg"] ?? 0) - 1)
        #expect((right["scanned-pdf"] ?? 0) >= (right["jpeg"] ?? 0) - 1)
    }

    @Test func bornDigitalPDFToDraft() throws {
        var latencies: [Double] = []
        var right = 0
        var totalsRight = 0
        let cpuStart = clock()
        let rounds = 5
        for _ in 0..<rounds {
            for name in Self.receipts {
                let label = try ReceiptLabel.of(name)
                let pdf = TestPDF.document([TestPDF.receiptPage(for: label, rawDate: label.date ?? "")])
                let start = ContinuousClock.now
                let read = try #require(
                    try PDFTextReceipt.read(pdf, file: name, options: ReceiptFiles.options, readBy: .ppocr))
                let draft = ReceiptExtractor.extract(read.page)
                latencies.append((ContinuousClock.now - start).seconds)
                right += fieldsRight(draft, label)
                if draft.total?.value == label.total.flatMap({ Decimal(string: $0) }) { totalsRight += 1 }
            }
        }
        let cpu = Double(clock() - cpuStart) / Double(CLOCKS_PER_SEC) / Double(latencies.count)
        latencies.sort()
        let p95 = latencies[Int(Double(latencies.count - 1) * 0.95)]
        print(
            "input kinds: born-digital pdf: \(right / rounds)/\(3 * Self.receipts.count) key fields right, file → draft "
                + "p50 \(String(format: "%.1f", latencies[latencies.count / 2] * 1000)) ms, "
                + "p95 \(String(format: "%.1f", p95 * 1000)) ms, \(String(format: "%.3f", cpu)) CPU-s per receipt")
        #expect(totalsRight == rounds * Self.receipts.count, "the exact text gives every total")
    }
}
