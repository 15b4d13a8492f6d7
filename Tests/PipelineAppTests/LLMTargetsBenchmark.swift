import Foundation
import Logging
import PipelineApp
import PipelineCore
import ReceiptImage
import ReceiptReading
import TestSupport
import Testing
import VisionLLM

/// Measures issue 16's targets for the vision-LLM path (`docs/llm.md`, "Targets") on the ten shipped receipts: the
/// real `ReceiptPipeline` (extract, LLM client, repair, merge, reconcile, acceptance, categorize) read by the rules
/// alone, and with the fake server answering each receipt's recorded reply (right, invented, wrong merchant, wrong
/// date) in both API shapes.
///
/// Each receipt's page is read once and handed to every run as the page an earlier attempt kept, so OCR never
/// repeats: by default the corpus's stored Tesseract page (`LLMCorpus/pages`, the page the replies were checked
/// against), with the original image as the model's copy; with `LLM_TARGETS_OCR=engine` the default OCR engine
/// (`ocr.engine`) reads each image in a first pipeline run, whose kept page and model copy the others reuse.
///
/// Shares are printed, not asserted; the asserted invariant is that no invented or wrong value reaches an accepted
/// expense and that each is named in the receipt's findings or notes.
/// Run: `scripts/test --filter LLMTargetsBenchmark`.
@Suite("Vision LLM targets (benchmark)", .serialized)
struct LLMTargetsBenchmark {
    enum Shape: String, CaseIterable {
        case openai, anthropic
        var provider: LLMProvider { self == .openai ? .openai : .anthropic }
    }

    /// One shipped receipt with the page every run reuses.
    struct Prepared {
        let name: String
        let label: ReceiptLabel
        let receipt: StoredReceipt

        var labelTotal: Decimal? {
            label.total.flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }
        }
    }

    /// A value the damaging reply gives that the receipt does not print.
    struct BadValue {
        let field: String
        let text: String
        let isIn: (ExpenseDraft) -> Bool
    }

    let server: FakeProviderServer
    let configuration: PipelineConfiguration

    init() throws {
        server = try FakeProviderServer()
        var configuration = PipelineConfiguration()
        if ProcessInfo.processInfo.environment["LLM_TARGETS_OCR"] != "engine" {
            configuration.ocr.engine = .tesseract
        }
        configuration.llm.retries = 0
        self.configuration = configuration
    }

    private var readsWithEngine: Bool { ProcessInfo.processInfo.environment["LLM_TARGETS_OCR"] == "engine" }

    /// The command that makes these figures.
    private var command: String {
        (readsWithEngine ? "LLM_TARGETS_OCR=engine " : "") + "scripts/test --filter LLMTargetsBenchmark"
    }

    private func pipeline(_ engine: ReceiptImageReader, shape: Shape?, scenario: String) throws -> ReceiptPipeline {
        var llm = configuration.llm
        if let shape {
            llm.provider = shape.provider
            llm.baseURL = server.baseURL(scenario).absoluteString
        }
        let vision = try VisionModelFactory.makeVisionModel(
            configuration: llm, environment: [llm.apiKeyEnvironmentVariable: "sk-bench-not-a-secret"],
            logger: Logger(label: "bench"))
        return ReceiptPipeline(
            ocr: engine, vision: vision, reconciler: Reconciler(configuration: configuration.validation),
            categorizer: Categorizer(rules: []))
    }

    /// The ten receipts, each with its page read once (see the suite's comment).
    private func prepare(_ engine: ReceiptImageReader) async throws -> [Prepared] {
        var prepared: [Prepared] = []
        for name in LLMCorpus.receipts {
            let file = name.hasPrefix("wr_") ? name + ".jpeg" : name + ".jpg"
            let bytes = Array(try Data(contentsOf: TestEnvironment.receipt(file)))
            let fresh = StoredReceipt(
                id: Int64(prepared.count + 1), sha256: "", originalName: file, format: .jpeg, bytes: bytes,
                ingestedAt: Date())
            let kept: KeptPage
            if readsWithEngine {
                let first = try pipeline(
                    engine, shape: .openai, scenario: LLMCorpus.scenario(name, .right))
                kept = try #require(try await first.run(fresh, attempt: .only).trace.newPage)
            } else {
                kept = KeptPage(page: try LLMCorpus.page(name), madeBy: engine.readsWith, llmImage: Data(bytes))
            }
            prepared.append(
                Prepared(
                    name: name, label: try ReceiptLabel.of(file),
                    receipt: StoredReceipt(
                        id: fresh.id, sha256: "", originalName: fresh.originalName, format: .jpeg, bytes: bytes,
                        ingestedAt: fresh.ingestedAt, keptPage: kept)))
        }
        return prepared
    }

    private func withEngine<T>(_ body: (ReceiptImageReader) async throws -> T) async throws -> T {
        try await withShutdown(
            try await ReceiptImageReader.make(
                configuration: configuration, options: ImageProcessingOptions(configuration), count: 1),
            shutdown: { await $0.shutdown() },
            body)
    }

    /// What the damaging `variant` of `receipt`'s reply says that the receipt does not (`LLMCorpus/README.md`).
    private static func badValues(_ variant: LLMCorpus.Variant, _ receipt: Prepared) throws -> [BadValue] {
        switch variant {
        case .invented:
            let total = try #require(receipt.labelTotal)
            let invented = total * 2 + Decimal(string: "0.37")!
            return [
                BadValue(field: "total", text: "\(invented)") { $0.total?.value == invented },
                BadValue(field: "item", text: "'Service charge'") { $0.items.contains { $0.name == "Service charge" } },
            ]
        case .wrongMerchant:
            return [BadValue(field: "merchant", text: "Starbucks Coffee") { $0.merchant?.value == "Starbucks Coffee" }]
        case .wrongDate:
            let parts = try #require(receipt.label.date).split(separator: "-").compactMap { Int($0) }
            let wrong = ReceiptDate(year: parts[0] - 1, month: parts[1], day: parts[2] % 28 + 1).description
            return [BadValue(field: "date", text: wrong) { $0.date?.value.description == wrong }]
        case .right, .fenced, .truncated:
            return []
        }
    }

    /// One way of reading the ten receipts, as a table row.
    struct Tally {
        var accepted = 0
        var acceptedRightTotal = 0
        var badValues = 0
        var committedBad = 0
        var acceptedBad = 0
        var namedBad = 0
        var reasons: [String] = []
        /// Receipt name → whether it was accepted, and why not (the findings, or the acceptance decision's reason).
        var outcomes: [String: (accepted: Bool, why: String)] = [:]

        /// How this way's acceptance differs from `baseline`'s, receipt by receipt.
        func changes(from baseline: Tally) -> [String] {
            outcomes.keys.sorted().compactMap { name in
                guard let mine = outcomes[name], let theirs = baseline.outcomes[name], mine.accepted != theirs.accepted
                else { return nil }
                return mine.accepted ? "\(name) now accepted" : "\(name) no longer accepted: \(mine.why)"
            }
        }

        func row(_ way: String, of count: Int) -> String {
            let damage =
                badValues == 0
                ? ""
                : "   bad values \(badValues): committed \(committedBad), accepted \(acceptedBad), named \(namedBad)"
            return way.padding(toLength: 26, withPad: " ", startingAt: 0)
                + "accepted \(accepted)/\(count), right total \(acceptedRightTotal)/\(accepted)" + damage
        }
    }

    private func tally(
        _ receipts: [Prepared], shape: Shape?, variant: LLMCorpus.Variant, engine: ReceiptImageReader
    ) async throws -> Tally {
        var tally = Tally()
        for receipt in receipts {
            let record = try await pipeline(
                engine, shape: shape, scenario: LLMCorpus.scenario(receipt.name, variant)
            ).run(receipt.receipt, attempt: .only).record
            let review = ReviewPolicy.decide(record)
            let accepted = review.status == .accepted
            let why =
                record.extraFindings.isEmpty
                ? review.acceptance.reason
                : record.extraFindings.map(\.message).joined(separator: "; ")
            tally.outcomes[receipt.name] = (accepted, why)
            if accepted {
                tally.accepted += 1
                if record.result.draft.total?.value == receipt.labelTotal { tally.acceptedRightTotal += 1 }
            }
            guard shape != nil else { continue }
            for bad in try Self.badValues(variant, receipt) {
                tally.badValues += 1
                let committed = bad.isIn(record.result.draft)
                let reason = review.findings.first { $0.message.contains(bad.text) }
                if committed { tally.committedBad += 1 }
                if committed && accepted { tally.acceptedBad += 1 }
                if let reason {
                    tally.namedBad += 1
                    let kind = record.extraFindings.contains(reason) ? "finding" : "note"
                    tally.reasons.append("\(receipt.name) \(bad.field) (\(kind)): \(reason.message)")
                }
                let value = "\(receipt.name) \(shape!.rawValue) \(variant.rawValue): the \(bad.field) \(bad.text)"
                #expect(!(committed && accepted), "\(value) was accepted")
                #expect(reason != nil, "\(value) is named nowhere: \(review.findings)")
            }
        }
        return tally
    }

    @Test func printsAcceptanceAndDamageByWay() async throws {
        let started = Date()
        try await withEngine { engine in
            let receipts = try await prepare(engine)
            let rules = try await tally(receipts, shape: nil, variant: .right, engine: engine)
            var lines = [rules.row("rules only", of: receipts.count)]
            var reasons: [String] = []
            for shape in Shape.allCases {
                for variant in [LLMCorpus.Variant.right, .invented, .wrongMerchant, .wrongDate] {
                    let way = try await tally(receipts, shape: shape, variant: variant, engine: engine)
                    lines.append(way.row("\(shape.rawValue) \(variant.rawValue)", of: receipts.count))
                    reasons += way.reasons.map { "\(shape.rawValue) \(variant.rawValue): \($0)" }
                    if variant == .right {
                        lines += way.changes(from: rules).map { "    \($0)" }
                    }
                }
            }
            let pages =
                readsWithEngine ? "pages read by \(configuration.ocr.engine.rawValue)" : "stored Tesseract pages"
            print(
                """
                # \(command)
                llm targets (10 shipped receipts, \(pages), \(String(format: "%.1f", Date().timeIntervalSince(started))) s):
                \(lines.joined(separator: "\n"))
                reasons given:
                \(reasons.joined(separator: "\n"))
                """)
        }
    }

    @Test func printsStageOverheadPercentiles() async throws {
        try await withEngine { engine in
            let receipts = try await prepare(engine)
            var overheads: [Duration] = []
            var calls: [Duration] = []
            let clock = ContinuousClock()
            for round in 0..<11 {
                for shape in Shape.allCases {
                    for receipt in receipts {
                        let pipeline = try pipeline(
                            engine, shape: shape, scenario: LLMCorpus.scenario(receipt.name, .right))
                        var run: ReceiptPipeline.Run?
                        let wall = try await clock.measure {
                            run = try await pipeline.run(receipt.receipt, attempt: .only)
                        }
                        let timings = try #require(run).record.timings
                        // Round 0 warms connections and caches up.
                        guard round > 0 else { continue }
                        let otherStages = timings.filter { ![.llm, .repair].contains($0.stage) }
                        overheads.append(wall - otherStages.reduce(Duration.zero) { $0 + $1.duration })
                        calls.append(timings.first { $0.stage == .llm }?.duration ?? .zero)
                    }
                }
            }
            func percentile(_ samples: [Duration], _ share: Int) -> String {
                let sorted = samples.sorted()
                return String(
                    format: "%.2f ms", sorted[min(sorted.count * share / 100, sorted.count - 1)].fractionalMilliseconds)
            }
            print(
                """
                # \(command)
                llm stage overhead (\(overheads.count) runs, fake server on loopback answering at once): \
                p50 \(percentile(overheads, 50)), p95 \(percentile(overheads, 95)), max \(percentile(overheads, 100)); \
                of it the client call (request, base64, HTTP, reply): p50 \(percentile(calls, 50)), \
                p95 \(percentile(calls, 95))
                """)
        }
    }
}
