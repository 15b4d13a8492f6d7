import Foundation
import PipelineCore
import Testing

/// The calibrated auto-accept decision and the committed fit it uses.
@Suite struct AutoAcceptanceTests {
    let reconciler = Reconciler(tolerance: money("0.01"))
    /// Accepts a balanced draft whose total won its ranking clearly; nothing else.
    let model = AcceptanceModel(intercept: -6, weights: [.balanced: 4, .totalProbability: 4], threshold: 0.8)

    func balancedDraft(totalProbability: Double) -> ExpenseDraft {
        var draft = ExpenseDraft(
            subtotal: ExtractedField(value: money("7.70"), confidence: 0.9, sourceLines: [3]),
            tax: ExtractedField(value: money("0.62"), confidence: 0.9, sourceLines: [4]),
            total: ExtractedField(value: money("8.32"), confidence: 0.9, sourceLines: [5]))
        draft.evidence = ExtractionEvidence(
            totalValue: money("8.32"),
            total: CandidateEvidence(probability: totalProbability, margin: 3, candidates: 4))
        return draft
    }

    @Test func acceptsOnlyAboveTheThreshold() {
        let clear = reconciler.reconcile(balancedDraft(totalProbability: 0.95))
        let doubtful = reconciler.reconcile(balancedDraft(totalProbability: 0.3))

        #expect(clear.outcome == .balanced && doubtful.outcome == .balanced)
        let accepted = AutoAcceptance.decide(clear, model: model)
        #expect(accepted.status == .accepted)
        #expect(abs(accepted.probability - 1 / (1 + exp(-(-6 + 4 + 4 * 0.95)))) < 1e-9)
        #expect(AutoAcceptance.decide(doubtful, model: model).status == .needsReview)
    }

    @Test func aTotalWithoutRankedEvidenceIsNeverAccepted() {
        var replaced = balancedDraft(totalProbability: 0.99)
        // A later stage (the LLM) put another total in place of the ranked winner.
        replaced.evidence?.totalValue = money("9.99")
        var bare = balancedDraft(totalProbability: 0.99)
        bare.evidence = nil
        var missing = balancedDraft(totalProbability: 0.99)
        missing.total = nil

        for draft in [replaced, bare, missing] {
            let decision = AutoAcceptance.decide(reconciler.reconcile(draft), model: model)
            #expect(decision.status == .needsReview)
            #expect(decision.probability == 0)
        }
    }

    func record(_ draft: ExpenseDraft, extraFindings: [Finding] = []) -> ExpenseRecord {
        ExpenseRecord(
            receiptID: 1, result: reconciler.reconcile(draft),
            categorization: Categorizer(rules: []).categorize(draft, receiptText: ""),
            extractionSource: .rules, extraFindings: extraFindings, ocrText: "", ocrConfidence: 90, llmUsage: nil,
            claimedAt: Date(), timings: [])
    }

    @Test func aReceiptHeldBackOnlyByTheModelSaysWhichFieldAndWhy() {
        var bare = balancedDraft(totalProbability: 0.99)
        bare.evidence = nil
        var unbalanced = balancedDraft(totalProbability: 0.99)
        unbalanced.tax = ExtractedField(value: money("0.70"), confidence: 0.9, sourceLines: [4])

        let heldBack = ReviewPolicy.decide(record(bare))
        #expect(heldBack.status == .needsReview && heldBack.reasons == [.totalNotSure])
        #expect(
            heldBack.findings == [
                Finding(
                    .notTrusted, field: .total,
                    "total not sure: the total did not come from the ranked candidates, so nothing vouches for it")
            ])
        let failed = ReviewPolicy.decide(record(unbalanced))
        #expect(failed.status == .needsReview)
        #expect(failed.reasons == [.unbalanced], "a total that does not add up is not also 'not sure'")
        #expect(failed.findings.contains { $0.code == .summaryToTotal && $0.field == .total }, "\(failed.findings)")
    }

    /// The review decision calls the acceptance decision: what it accepts is accepted when nothing else holds the
    /// receipt, what it holds back waits with the field it does not trust.
    @Test func theReviewDecisionAcceptsWhatAcceptanceAcceptsAndNothingElse() {
        let accept = { (result: ReconciliationResult) in AutoAcceptance.decide(result, model: model) }
        let clear = record(balancedDraft(totalProbability: 0.95))
        let doubtful = record(balancedDraft(totalProbability: 0.3))
        let disagreed = record(
            balancedDraft(totalProbability: 0.95),
            extraFindings: [Finding(.llmValueNotPrinted, field: .merchant, "the LLM merchant 'X' is not printed")])

        let accepted = ReviewPolicy.decide(clear, acceptance: accept)
        #expect(accepted.status == .accepted && accepted.reasons.isEmpty && accepted.findings.isEmpty)
        #expect(ReviewPolicy.decide(doubtful, acceptance: accept).reasons == [.totalNotSure])
        #expect(ReviewPolicy.decide(disagreed, acceptance: accept).reasons == [.llmDisagreement])
        #expect(ReviewPolicy.decide(clear, possibleDuplicateOf: 7, acceptance: accept).reasons == [.possibleDuplicate])
    }

    /// The fitted model on a clean receipt: a keyword total that the subtotal and tax add up to is accepted.
    @Test func theFittedModelAcceptsACleanBalancedReceipt() {
        let page = OCRPage(text: "CORNER CAFE\nLatte 4.50\nBagel 3.20\nSUBTOTAL 7.70\nTAX 0.62\nTOTAL 8.32")
        let result = reconciler.reconcile(ReceiptExtractor.extract(page))

        #expect(result.outcome == .balanced)
        #expect(result.draft.evidence?.totalValue == money("8.32"))
        #expect(AutoAcceptance.decide(result).status == .accepted)
    }

    /// The generated Swift constants and the JSON the fitting command wrote are the same fit.
    @Test func committedFitMatchesItsJSON() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("scripts/fit_extraction/model.json"))
        let decoded = try JSONDecoder().decode(ExtractionModel.self, from: data)

        #expect(decoded == ExtractionModel.fitted)
        #expect(decoded.acceptance.threshold > 0.5)
    }
}
