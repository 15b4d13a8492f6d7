import Foundation
import Logging
import PipelineApp
import PipelineCore
import ReceiptBench
import TestSupport
import Testing
import VisionLLM

/// Measures issue 25's "two readers" targets (`docs/extraction-fitting.md`, "Two readers"): the real
/// `ReceiptPipeline` over labeled receipts read by the rules alone, and with the fake server answering each receipt
/// from its label — right, or damaged (wrong merchant, wrong date, an invented total, and one key field read from
/// another printed line: `PrintedDamage`) — in the OpenAI shape. Prints the accepted share, the silent errors
/// (accepted with a labeled key field wrong) and the review reasons of the rest for each way; asserts that no damaged
/// reply of the corpus's kinds leads to a silent error. With `LLM_LABEL_DETAILS=1` it also prints every silent error
/// and, for right replies, every receipt held with its reasons, findings and notes.
///
/// By default it reads the ten shipped receipts on their stored Tesseract pages (`LLMCorpus/pages`). With
/// `LLM_LABEL_FIXTURES=DIR` and `LLM_LABEL_OCR_CACHE=CACHE` it reads every labeled receipt under DIR on its page
/// in CACHE (the `pipeline bench --ocr-cache` layout), e.g. the train or dev set:
/// `LLM_LABEL_FIXTURES=../shared/fixtures/train LLM_LABEL_OCR_CACHE=/work/ocr-cache/ppocr-swift/train
/// swift test --skip-build --filter LLMLabelRepliesBenchmark`.
@Suite("Vision LLM replies from labels (benchmark)", .serialized)
struct LLMLabelRepliesBenchmark {
    /// One labeled receipt with the page every run reuses.
    struct Prepared {
        let name: String
        let fixture: BenchFixture
        let receipt: StoredReceipt
    }

    /// How one way of reading did.
    struct Tally {
        var receipts = 0
        var accepted = 0
        var silentErrors = 0
        var silentFields: [String: Int] = [:]
        /// Why the receipts not accepted wait, by review reason (a receipt counts under each of its reasons).
        var heldBy: [String: Int] = [:]

        func row(_ way: String) -> String {
            let share = receipts == 0 ? 0 : 100 * Double(accepted) / Double(receipts)
            let fields = silentFields.keys.sorted().map { "\($0) \(silentFields[$0]!)" }.joined(separator: ", ")
            return way.padding(toLength: 24, withPad: " ", startingAt: 0)
                + "receipts \(receipts), accepted \(accepted) (\(String(format: "%.1f", share))%), "
                + "silent errors \(silentErrors)" + (fields.isEmpty ? "" : " (\(fields))")
                + (heldBy.isEmpty
                    ? ""
                    : "; held by "
                        + heldBy.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
                        .map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
    }

    let environment = ProcessInfo.processInfo.environment
    /// Whatever engine the kept pages are said to be made by: the pipeline reuses pages its engine made.
    let keptBy = PipelineConfiguration().ocr.engine

    private func prepare() throws -> (receipts: [Prepared], corpus: URL, source: String) {
        let fixtures: [BenchFixture]
        let pages: (BenchFixture) throws -> OCRPage
        let source: String
        if let folder = environment["LLM_LABEL_FIXTURES"], let cache = environment["LLM_LABEL_OCR_CACHE"] {
            let url = URL(fileURLWithPath: folder)
            fixtures = try BenchFixture.load(from: url)
            let pageCache = OCRPageCache(directory: URL(fileURLWithPath: cache), fixtureFolder: url)
            pages = { try pageCache.page(for: $0.image) }
            source = "\(folder) on the pages in \(cache)"
        } else {
            let folder = TestEnvironment.receipt("sroie_006.jpg").deletingLastPathComponent()
            fixtures = try BenchFixture.load(from: folder)
            pages = { try LLMCorpus.page($0.image.deletingPathExtension().lastPathComponent) }
            source = "the 10 shipped receipts on their stored Tesseract pages"
        }
        let corpus = FileManager.default.temporaryDirectory.appendingPathComponent("label-replies-\(UUID())")
        let labels = fixtures.first.map { $0.image.deletingLastPathComponent() }
        let maker = Process()
        maker.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // The labels' folder: for a fixture set, its root (the script searches it recursively), as an absolute path,
        // since the script runs in the corpus's folder.
        let root =
            (environment["LLM_LABEL_FIXTURES"].map { URL(fileURLWithPath: $0) } ?? labels)?.absoluteURL.path ?? ""
        maker.arguments = [
            "python3", LLMCorpus.folder.appendingPathComponent("make_replies.py").path, root, corpus.path,
        ]
        maker.currentDirectoryURL = LLMCorpus.folder
        try maker.run()
        maker.waitUntilExit()
        #expect(maker.terminationStatus == 0, "make_replies.py failed")
        let receipts = try fixtures.enumerated().map { index, fixture in
            let bytes = Array(try Data(contentsOf: fixture.image))
            return Prepared(
                name: fixture.image.deletingPathExtension().lastPathComponent, fixture: fixture,
                receipt: StoredReceipt(
                    id: Int64(index + 1), sha256: "", originalName: fixture.image.lastPathComponent, format: .jpeg,
                    bytes: bytes, ingestedAt: Date(),
                    keptPage: KeptPage(page: try pages(fixture), madeBy: keptBy, llmImage: Data(bytes))))
        }
        let keptPages = receipts.compactMap { prepared in prepared.receipt.keptPage.map { (prepared.name, $0.page) } }
        for damage in PrintedDamage.allCases {
            try PrintedDamage.write(damage, receipts: keptPages, corpus: corpus)
        }
        return (receipts, corpus, source)
    }

    private func pipeline(server: FakeProviderServer?, scenario: String) throws -> ReceiptPipeline {
        var configuration = PipelineConfiguration()
        configuration.llm.retries = 0
        var vision: (any VisionModel)?
        if let server {
            configuration.llm.provider = .openai
            configuration.llm.baseURL = server.baseURL(scenario).absoluteString
            vision = try VisionModelFactory.makeVisionModel(
                configuration: configuration.llm,
                environment: [configuration.llm.apiKeyEnvironmentVariable: "sk-bench-not-a-secret"],
                logger: Logger(label: "bench"))
        }
        return ReceiptPipeline(
            ocr: NoOCR(readsWith: keptBy), vision: vision,
            reconciler: Reconciler(configuration: configuration.validation),
            categorizer: Categorizer(rules: []))
    }

    /// Every page is kept (and no receipt is a PDF), so the pipeline never asks for the image stages.
    struct NoOCR: OCREngine {
        let readsWith: OCREngineChoice
        func process(_ bytes: Data, file: String) async throws -> ProcessedImage {
            throw FakeServerError(message: "\(file): the benchmark reads kept pages only")
        }

        func decode(_ bytes: Data, file: String, page: OCRPage) async throws -> ProcessedImage {
            throw FakeServerError(message: "\(file): the benchmark reads kept pages of images only")
        }
    }

    /// How `variant` of the replies (a corpus variant or a `PrintedDamage`) did; `details` prints what
    /// `LLM_LABEL_DETAILS` asks for.
    private func tally(
        _ receipts: [Prepared], server: FakeProviderServer?, variant: String, corpus: URL, details: Bool = false
    ) async throws -> Tally {
        var tally = Tally()
        for receipt in receipts {
            let scenario = "recorded-\(receipt.name).\(variant)"
            if server != nil,
                !FileManager.default.fileExists(
                    atPath: corpus.appendingPathComponent("openai/\(receipt.name).\(variant).json").path)
            {
                continue
            }
            let record = try await pipeline(server: server, scenario: scenario).run(receipt.receipt, attempt: .only)
                .record
            tally.receipts += 1
            let review = ReviewPolicy.decide(record)
            guard review.status == .accepted else {
                if details, variant == LLMCorpus.Variant.right.rawValue {
                    print(
                        "  held \(receipt.name): \(review.reasons.map(\.rawValue).joined(separator: ", ")) | "
                            + review.findings.map { "[\($0.code.rawValue)] \($0.message)" }.joined(separator: " | "))
                }
                for reason in review.reasons { tally.heldBy[reason.rawValue, default: 0] += 1 }
                for field in review.acceptance.untrusted where field.probability == 0 {
                    tally.heldBy["\(field.field.rawValue) not found or replaced (probability 0)", default: 0] += 1
                }
                continue
            }
            tally.accepted += 1
            let score = ReceiptScorer.score(
                name: receipt.name, label: receipt.fixture.label, record: record, latency: 0)
            let wrong = score.fields.filter {
                [ScoredField.merchantFuzzy, .date, .total].contains($0.field) && !$0.isCorrect
            }
            if !wrong.isEmpty {
                if details {
                    print(
                        "  silent \(variant) \(receipt.name): "
                            + wrong.map { "\($0.field.rawValue) \($0.got ?? "none") for \($0.expected ?? "none")" }
                            .joined(separator: ", ") + " | " + review.acceptance.reason)
                }
                tally.silentErrors += 1
                for field in wrong { tally.silentFields[field.field.rawValue, default: 0] += 1 }
            }
        }
        return tally
    }

    @Test func agreementCountsAndDamagedRepliesCauseNoSilentErrors() async throws {
        let started = Date()
        let (receipts, corpus, source) = try prepare()
        defer { try? FileManager.default.removeItem(at: corpus) }
        let server = try FakeProviderServer(corpus: corpus)
        let details = environment["LLM_LABEL_DETAILS"] != nil
        let right = LLMCorpus.Variant.right.rawValue
        let rules = try await tally(receipts, server: nil, variant: right, corpus: corpus)
        var lines = [rules.row("rules only")]
        let variants =
            [LLMCorpus.Variant.right, .wrongMerchant, .wrongDate, .invented].map(\.rawValue)
            + PrintedDamage.allCases.map(\.rawValue)
        for variant in variants {
            let way = try await tally(receipts, server: server, variant: variant, corpus: corpus, details: details)
            lines.append(way.row("model \(variant)"))
            if variant == right {
                #expect(
                    way.receipts == receipts.count,
                    "replies were made for \(way.receipts) of \(receipts.count) receipts")
            }
            // A printed damage the rules misread the same way is accepted on the two readers' agreement
            // (`confirmedByModel`): those rows measure that weight and are printed, not held to 0.
            if variant != right, PrintedDamage(rawValue: variant) == nil {
                #expect(way.silentErrors == 0, "\(variant) replies: \(way.row(variant))")
            }
        }
        print(
            """
            # LLM replies from labels: \(source) (\(String(format: "%.0f", Date().timeIntervalSince(started))) s)
            \(lines.joined(separator: "\n"))
            """)
    }
}
