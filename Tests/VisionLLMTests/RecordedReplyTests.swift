import Foundation
import Logging
import PipelineCore
import ReceiptBench
import TestSupport
import Testing
import VisionLLM

/// The recorded-reply corpus through both clients and the merge: each of the ten shipped receipts, its real OCR
/// page, and replies that are right, damaged or wrong in a named way (`LLMCorpus`).
@Suite("Recorded LLM replies merged by evidence")
struct RecordedReplyTests {
    enum Shape: String, CaseIterable { case openai, anthropic }

    /// One receipt read by the rules alone and merged with one recorded reply.
    struct Outcome {
        let receipt: String
        let label: FixtureLabel
        let rules: ExpenseDraft
        let rulesStatus: ExpenseStatus
        let merged: MergedDraft
        let result: ReconciliationResult

        /// As the review decision decides it for the expense record: any merge finding sends it to review.
        var status: ExpenseStatus { ReviewPolicy.decide(result, otherFindings: merged.findings).status }
        var total: Decimal? { result.draft.total?.value }
    }

    let server: FakeProviderServer
    let reconciler = Reconciler(tolerance: Decimal(string: "0.01")!)

    init() throws {
        server = try FakeProviderServer()
    }

    private func client(_ shape: Shape, _ scenario: String) -> any VisionModel {
        let settings = VisionClientSettings(
            baseURL: server.baseURL(scenario), model: "recorded", apiKey: APIKey("sk-test-recorded"), retries: 0)
        switch shape {
        case .openai: return OpenAICompatibleClient(settings: settings, logger: Logger(label: "test"))
        case .anthropic: return AnthropicClient(settings: settings, logger: Logger(label: "test"))
        }
    }

    private func outcomes(_ shape: Shape, _ variant: LLMCorpus.Variant) async throws -> [Outcome] {
        var outcomes: [Outcome] = []
        for receipt in LLMCorpus.receipts {
            let page = try LLMCorpus.page(receipt)
            let label = try FixtureLabel.decode(Data(contentsOf: TestEnvironment.receipt(receipt + ".json")))
            let rules = ReceiptExtractor.extract(page)
            let request = VisionRequest(
                receipt: receipt, image: Data([0xFF, 0xD8, 0xFF]), ocrText: page.text,
                hint: ReceiptLocaleHint(rules: rules))
            let reply = try await client(shape, LLMCorpus.scenario(receipt, variant)).readReceipt(request)
            let extraction = LLMExtraction(
                replyText: reply.text, providerReportedTruncation: reply.wasTruncated)
            let merged = DraftMerge.merge(rules: rules, llm: extraction, page: page, reconciler: reconciler)
            outcomes.append(
                Outcome(
                    receipt: receipt, label: label, rules: rules,
                    rulesStatus: ReviewPolicy.decide(reconciler.reconcile(rules)).status,
                    merged: merged,
                    result: reconciler.reconcile(merged.draft)))
        }
        return outcomes
    }

    private func labelTotal(_ outcome: Outcome) -> Decimal? {
        outcome.label.total.flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }
    }

    /// The pipeline reads a page's lines once (`ReceiptPage`) and checks the reply's amounts and the merge against
    /// that one reading (`PageEvidence`); that must decide exactly what reading the page's text afresh decides.
    @Test(arguments: LLMCorpus.Variant.allCases)
    func theSharedPageReadingDecidesAsReadingThePageAfresh(variant: LLMCorpus.Variant) async throws {
        for receipt in LLMCorpus.receipts {
            let page = try LLMCorpus.page(receipt)
            let read = ReceiptPage(page)
            let rules = ReceiptExtractor.extract(read)
            let request = VisionRequest(receipt: receipt, image: Data([0xFF, 0xD8, 0xFF]), ocrText: page.text)
            let reply = try await client(.openai, LLMCorpus.scenario(receipt, variant)).readReceipt(request)
            let afresh = LLMExtraction(
                replyText: reply.text, providerReportedTruncation: reply.wasTruncated)
            let evidence = PageEvidence(page: read, rules: rules)
            let shared = LLMExtraction(
                replyText: reply.text, providerReportedTruncation: reply.wasTruncated)
            #expect(
                DraftMerge.merge(rules: rules, llm: shared, evidence: evidence, reconciler: reconciler)
                    == DraftMerge.merge(rules: rules, llm: afresh, page: page, reconciler: reconciler),
                "\(receipt)")
        }
    }

    @Test(arguments: Shape.allCases, [LLMCorpus.Variant.right, .fenced])
    func aRightModelNeverMakesAReceiptWorse(shape: Shape, variant: LLMCorpus.Variant) async throws {
        let outcomes = try await outcomes(shape, variant)
        for outcome in outcomes {
            if outcome.rulesStatus == .accepted {
                #expect(outcome.status == .accepted, "\(outcome.receipt): \(outcome.merged.findings)")
            }
            if outcome.status == .accepted {
                #expect(outcome.total == labelTotal(outcome), "\(outcome.receipt)")
            }
        }
        let rulesAccepted = outcomes.filter { $0.rulesStatus == .accepted }.count
        let mergedAccepted = outcomes.filter { $0.status == .accepted }.count
        #expect(mergedAccepted >= rulesAccepted)
        print(
            "recorded \(shape.rawValue) \(variant.rawValue): accepted \(mergedAccepted)/\(outcomes.count) merged, "
                + "\(rulesAccepted)/\(outcomes.count) rules only")
    }

    @Test(arguments: Shape.allCases)
    func aTruncatedReplySendsTheReceiptToReview(shape: Shape) async throws {
        for outcome in try await outcomes(shape, .truncated) {
            #expect(outcome.merged.findings.contains { $0.message.contains("cut off") }, "\(outcome.receipt)")
            #expect(outcome.status == .needsReview)
        }
    }

    @Test(arguments: Shape.allCases)
    func inventedTotalsAndItemsAreNeverAccepted(shape: Shape) async throws {
        for outcome in try await outcomes(shape, .invented) {
            let invented = try #require(labelTotal(outcome)) * 2 + Decimal(string: "0.37")!
            #expect(outcome.total != invented, "\(outcome.receipt)")
            #expect(outcome.merged.findings.contains { $0.message.contains("\(invented)") }, "\(outcome.receipt)")
            // The invented item costs the true total: where an item line prints that much (a one-item receipt) it is
            // indistinguishable from a real item.
            let total = try #require(labelTotal(outcome))
            guard !outcome.rules.items.contains(where: { $0.totalPrice == total || $0.unitPrice == total }) else {
                continue
            }
            #expect(
                !outcome.result.draft.items.contains { $0.name == "Service charge" },
                "\(outcome.receipt): rules items \(outcome.rules.items)")
            #expect(outcome.merged.notes.contains { $0.message.contains("'Service charge'") }, "\(outcome.receipt)")
        }
    }

    @Test(arguments: Shape.allCases)
    func aWrongMerchantIsNeverAcceptedAndAlwaysFlagged(shape: Shape) async throws {
        for outcome in try await outcomes(shape, .wrongMerchant) {
            #expect(outcome.merged.findings.contains { $0.message.contains("Starbucks Coffee") }, "\(outcome.receipt)")
            #expect(outcome.status == .needsReview)
            if outcome.rules.merchant != nil {
                #expect(outcome.result.draft.merchant?.value != "Starbucks Coffee", "\(outcome.receipt)")
            }
        }
    }

    @Test(arguments: Shape.allCases)
    func aWrongDateIsNeverAcceptedAndAlwaysFlagged(shape: Shape) async throws {
        for outcome in try await outcomes(shape, .wrongDate) {
            let parts = try #require(outcome.label.date).split(separator: "-").compactMap { Int($0) }
            let wrong = ReceiptDate(year: parts[0] - 1, month: parts[1], day: parts[2] % 28 + 1)
            if outcome.rules.date != nil {
                #expect(outcome.result.draft.date?.value != wrong, "\(outcome.receipt)")
            }
            #expect(outcome.merged.findings.contains { $0.message.contains("not printed") }, "\(outcome.receipt)")
            #expect(outcome.status == .needsReview)
        }
    }
}
