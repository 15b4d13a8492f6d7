import Foundation
import PipelineApp
import PipelineCore
import ReceiptBench
import ReceiptImage
import TesseractOCR
import TestSupport
import Testing

/// Issue 25's invariant of the one review decision, over every shipped receipt (read by the real pipeline with
/// Tesseract) and, when the shared fixture sets are present, every receipt of theirs whose page is in the OCR page
/// cache `.build/fixture-ocr-cache/SET` (fill it with `pipeline bench --fixtures ../shared/fixtures/SET --ocr-cache
/// .build/fixture-ocr-cache/SET`; reading 772 receipts afresh would take minutes of the suite).
@Suite struct ReviewDecisionInvariantTests {
    /// Every labeled receipt set to check: the shipped one, and the shared train and dev sets when present.
    static func receiptSets() -> [(name: String, folder: URL, cached: Bool)] {
        var sets = [(name: "shipped", folder: TestEnvironment.receiptsFolder, cached: false)]
        // The shared folder sits beside the checkout (or beside the folder of worktrees).
        let shared =
            [1, 2].map { levels in
                (0..<levels).reduce(TestEnvironment.repositoryRoot) { url, _ in url.deletingLastPathComponent() }
                    .appendingPathComponent("shared/fixtures")
            }.first { FileManager.default.fileExists(atPath: $0.path) }
            ?? TestEnvironment.repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
        for name in ["train", "receipts"] {
            let folder = shared.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: folder.path) {
                sets.append((name: name, folder: folder, cached: true))
            } else {
                print("ReviewDecisionInvariantTests: skipped the fixture set \(folder.path): not present")
            }
        }
        return sets
    }

    /// `needs_review` ⇔ at least one reason; an accepted expense has no finding that calls for a person and every
    /// key field trusted; and every check that says its amounts match holds within the tolerance. Prints the share
    /// the acceptance decision alone accepts beside the share the review decision accepts.
    @Test func everyReceiptWaitsExactlyWhenItHasAReasonAndEveryMatchHolds() async throws {
        let configuration = PipelineConfiguration()
        let tolerance = configuration.validation.tolerance
        let engines = try await TesseractEnginePool.make(count: 2, options: ImageProcessingOptions(configuration))
        try await withShutdown(engines, shutdown: { await $0.shutdown() }) { engines in
            for set in Self.receiptSets() {
                let cache = OCRPageCache(
                    directory: TestEnvironment.repositoryRoot.appendingPathComponent(
                        ".build/fixture-ocr-cache/\(set.name)"),
                    fixtureFolder: set.folder)
                let fixtures = try BenchFixture.load(from: set.folder).filter {
                    !set.cached || cache.contains($0.image)
                }
                guard !fixtures.isEmpty else {
                    print(
                        "ReviewDecisionInvariantTests: skipped the fixture set \(set.folder.path): no page of it in "
                            + "\(cache.directory.path)")
                    continue
                }
                let images = Dictionary(uniqueKeysWithValues: fixtures.map { ($0.name, $0.image) })
                let ocr: any OCREngine =
                    set.cached
                    ? CachedOCREngine(
                        cache: cache, images: images, engine: nil, readsWith: configuration.ocr.engine) : engines
                let pipeline = ReceiptPipeline(
                    ocr: ocr, vision: nil, reconciler: Reconciler(tolerance: tolerance),
                    categorizer: Categorizer(rules: []))
                let records = try await withThrowingTaskGroup(of: ExpenseRecord.self) { group in
                    var records: [ExpenseRecord] = []
                    for (index, fixture) in fixtures.enumerated() {
                        if index >= 2, let record = try await group.next() { records.append(record) }
                        group.addTask {
                            let bytes = try Data(contentsOf: fixture.image)
                            guard
                                case .supported(let format) = detectImageFormat(
                                    leadingBytes: bytes.prefix(imageSignatureLength))
                            else { throw CocoaError(.fileReadCorruptFile) }
                            let receipt = StoredReceipt(
                                id: Int64(index), sha256: "", originalName: fixture.name, format: format,
                                bytes: Array(bytes), ingestedAt: Date())
                            return try await pipeline.run(receipt, attempt: .only).record
                        }
                    }
                    for try await record in group { records.append(record) }
                    return records
                }
                var acceptedBefore = 0
                var acceptedAfter = 0
                for record in records {
                    let name = fixtures[Int(record.receiptID)].name
                    let review = ReviewPolicy.decide(record)
                    #expect((review.status == .needsReview) == !review.reasons.isEmpty, "\(name)")
                    if review.status == .accepted {
                        acceptedAfter += 1
                        let holding = review.findings.filter { ReviewPolicy.reason(for: $0) != nil }
                        #expect(holding.isEmpty, "\(name) accepted with \(holding)")
                        #expect(review.acceptance.status == .accepted, "\(name)")
                    }
                    if review.acceptance.status == .accepted { acceptedBefore += 1 }
                    for check in record.result.findings where check.message.contains("match") {
                        #expect(check.passed, "\(name): \(check.message)")
                        #expect(
                            MatchClaim(check.message)?.holds(within: tolerance) == true,
                            "\(name): '\(check.message)' does not hold")
                    }
                }
                print(
                    "ReviewDecisionInvariantTests: \(set.name): \(records.count) receipts; accepted by the acceptance "
                        + "decision alone \(acceptedBefore), by the review decision \(acceptedAfter)")
            }
        }
    }

    /// Issue 25: "subtotal 21.60 already includes tax 0.70 and matches the total 12.40" — a coupon discount made the
    /// sum match, but the finding left it out and claimed an equality its own numbers contradict.
    @Test func aTaxInclusiveMatchSaysWhatAddsUp() {
        func amount(_ text: String, line: Int) -> ExtractedField<Decimal> {
            ExtractedField(value: Decimal(string: text)!, confidence: 0.9, sourceLines: [line])
        }
        let draft = ExpenseDraft(
            subtotal: amount("21.60", line: 4), tax: amount("0.70", line: 5), discounts: amount("9.20", line: 6),
            total: amount("12.40", line: 7))

        let result = Reconciler(tolerance: Decimal(string: "0.01")!).reconcile(draft)

        let summary = result.findings.first { $0.check == .summaryToTotal }
        #expect(summary?.passed == true)
        let claim = summary.flatMap { MatchClaim($0.message) }
        #expect(claim?.holds(within: Decimal(string: "0.01")!) == true, "\(summary?.message ?? "no summary check")")
        #expect(summary?.message.contains("discounts 9.20") == true, "\(summary?.message ?? "")")
    }
}
