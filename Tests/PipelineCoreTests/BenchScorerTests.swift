import Foundation
import PipelineCore
import ReceiptBench
import Testing

@Suite struct BenchScorerTests {
    func label(
        merchant: String? = "CORNER CAFE", date: String? = "2024-03-05", total: String? = "8.32",
        items: [FixtureLabel.Item] = [], labeled: [String] = ["merchant", "date", "total"]
    ) -> FixtureLabel {
        FixtureLabel(
            merchant: merchant, date: date, currency: "USD", total: total, subtotal: nil, tax: nil, tip: nil,
            items: items,
            source: .init(dataset: "Test", labeledFields: labeled))
    }

    func result(merchant: String?, date: ReceiptDate?, total: String?, items: [DraftLineItem] = [])
        -> ReconciliationResult
    {
        let draft = ExpenseDraft(
            merchant: merchant.map { ExtractedField(value: $0, confidence: 0.9, sourceLines: [0]) },
            date: date.map { ExtractedField(value: $0, confidence: 0.9, sourceLines: [1]) },
            total: total.map { ExtractedField(value: money($0), confidence: 0.9, sourceLines: [2]) }, items: items)
        return ReconciliationResult(draft: draft, outcome: .balanced, findings: [])
    }

    func score(_ label: FixtureLabel, _ result: ReconciliationResult) -> ReceiptScore {
        ReceiptScorer.score(name: "r", label: label, result: result, latency: 0.1, ocrText: "")
    }

    @Test func exactFieldsAndFuzzyMerchant() {
        let scored = score(
            label(), result(merchant: "Corner Cafe.", date: ReceiptDate(year: 2024, month: 3, day: 5), total: "8.320"))

        #expect(scored.comparison(.merchantStrict)?.isCorrect == true)
        #expect(scored.comparison(.date)?.isCorrect == true)
        #expect(scored.comparison(.total)?.isCorrect == true)
        #expect(scored.comparison(.allKeyFields)?.isCorrect == true)
    }

    @Test func fuzzyMerchantToleratesOCRSlipsButNotOtherNames() {
        let close = score(
            label(merchant: "SOON HUAT MACHINERY ENTERPRISE"),
            result(merchant: "SOON HUAT MACHlNERY ENTERPRlSE", date: nil, total: nil))
        let far = score(
            label(merchant: "SOON HUAT MACHINERY ENTERPRISE"), result(merchant: "KEDAI PAPAN", date: nil, total: nil))

        #expect(close.comparison(.merchantStrict)?.isCorrect == false)
        #expect(close.comparison(.merchantFuzzy)?.isCorrect == true)
        #expect(far.comparison(.merchantFuzzy)?.isCorrect == false)
    }

    /// WildReceipt labels join the printed name regions (`PaneraBread Cafe0994`); a reading of the name's leading
    /// part, or one holding the whole label, names the merchant; a middle part, a tail or a short stub does not.
    @Test(arguments: [
        ("PaneraBread Cafe0994", "Panera Bread", true),
        ("SOON HUAT MACHINERY ENTERPRISE", "SOON HUAT", true),
        ("TESCO extra", "TESCO", true),
        ("CHEF LEE SDN BHD", "OWN BY: CHEF LEE SDN BHD", true),
        ("ROUND THE TOWER", "ROUND", false),
        ("SOON HUAT MACHINERY ENTERPRISE", "MACHINERY ENTERPRISE", false),
        ("AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD", "ALAM) SDN BHD", false),
        ("CENTRAL CIR", "CIR", false),
    ])
    func fuzzyMerchantTakesTheNamesLeadingPartOrTheWholeLabel(expected: String, got: String, isRight: Bool) {
        let scored = score(label(merchant: expected), result(merchant: got, date: nil, total: nil))
        #expect(scored.comparison(.merchantFuzzy)?.isCorrect == isRight, "\(got) for \(expected)")
    }

    @Test func moneyIsExactToTheCent() {
        let scored = score(label(total: "8.32"), result(merchant: nil, date: nil, total: "8.33"))

        #expect(scored.comparison(.total)?.isCorrect == false)
        #expect(scored.comparison(.total)?.got == "8.33")
        #expect(scored.comparison(.allKeyFields)?.isCorrect == false)
    }

    @Test func onlyLabeledFieldsAreScored() {
        let scored = score(label(labeled: ["total"]), result(merchant: "X", date: nil, total: "8.32"))

        #expect(scored.comparison(.merchantFuzzy) == nil)
        #expect(scored.comparison(.date) == nil)
        #expect(scored.comparison(.allKeyFields)?.isCorrect == true)
    }

    @Test func itemsMatchOnPriceAndSimilarName() throws {
        let expected = [
            FixtureLabel.Item(name: "CoconutMacaroon", quantity: 1, unitPrice: nil, totalPrice: "2.50"),
            FixtureLabel.Item(name: "Latte", quantity: 1, unitPrice: nil, totalPrice: "4.50"),
        ]
        let predicted = [
            DraftLineItem(
                name: "Coconut Macaron", quantity: nil, unitPrice: nil, totalPrice: money("2.50"), confidence: 1,
                sourceLines: [3]),
            DraftLineItem(
                name: "Latte", quantity: nil, unitPrice: nil, totalPrice: money("4.60"), confidence: 1, sourceLines: [4]
            ),
            DraftLineItem(
                name: "Tax", quantity: nil, unitPrice: nil, totalPrice: money("0.50"), confidence: 1, sourceLines: [5]),
        ]

        let items = try #require(
            score(
                label(items: expected, labeled: ["items"]),
                result(merchant: nil, date: nil, total: nil, items: predicted)
            ).items)

        #expect(items == ItemCounts(matched: 1, predicted: 3, expected: 2))
        #expect(abs(items.precision - 1.0 / 3) < 1e-9 && abs(items.recall - 0.5) < 1e-9)
        #expect(abs(items.f1 - 0.4) < 1e-9)
    }

    @Test func summaryComputesTrustAndTargets() {
        var right = score(
            label(), result(merchant: "CORNER CAFE", date: ReceiptDate(year: 2024, month: 3, day: 5), total: "8.32"))
        right.status = .accepted
        var wrong = score(label(), result(merchant: "ELSEWHERE", date: nil, total: "9.99"))
        wrong.status = .accepted
        var review = score(label(), result(merchant: "CORNER CAFE", date: nil, total: nil))
        review.status = .needsReview

        let summary = BenchSummary(receipts: [right, wrong, review])

        #expect(summary.overall.autoAccepted == 2)
        #expect(summary.overall.trust == 0.5)
        // The wrong one was accepted: nobody sees it. The one in review is a touch, not a silent error.
        #expect(summary.overall.silentErrors == 1)
        #expect(abs(summary.overall.touchesPer100 - 100.0 / 3) < 1e-9)
        #expect(summary.overall.fields[.total] == FieldAccuracy(correct: 1, scored: 3))
        var targets = BenchTargets()
        targets.totalAccuracy = 0.3
        targets.dateAccuracy = 0.3
        targets.merchantAccuracy = 0.9
        #expect(
            summary.missedTargets(targets) == [
                "Test merchant (fuzzy) accuracy 0.67 is below targets.merchantAccuracy 0.90"
            ])
    }

    /// The trade-off: each budget's touches and silent errors from the statuses the receipts would have had there,
    /// printed under the table with the configured budget's point marked, and drawn in the HTML report.
    @Test func theTradeOffCountsEachBudgetAndMarksTheConfiguredOne() {
        var right = score(
            label(), result(merchant: "CORNER CAFE", date: ReceiptDate(year: 2024, month: 3, day: 5), total: "8.32"))
        var wrong = score(label(), result(merchant: "ELSEWHERE", date: nil, total: "9.99"))
        right.statusByBudget = [
            BudgetStatus(maxSilentPer100: 0.5, status: .needsReview),
            BudgetStatus(maxSilentPer100: 3, status: .accepted),
        ]
        wrong.statusByBudget = [
            BudgetStatus(maxSilentPer100: 0.5, status: .needsReview),
            BudgetStatus(maxSilentPer100: 3, status: .accepted),
        ]

        let summary = BenchSummary(receipts: [right, wrong], maxSilentPer100: 2)
        let text = BenchTextReport.render(summary)
        let html = BenchHTMLReport.render(summary) { _ in nil }

        #expect(
            summary.overall.tradeOff == [
                TradeOffPoint(maxSilentPer100: 0.5, touchesPer100: 100, silentPer100: 0),
                TradeOffPoint(maxSilentPer100: 3, touchesPer100: 0, silentPer100: 50),
            ])
        #expect(summary.configuredPoint == 0.5, "a budget of 2 takes the largest point not above it")
        #expect(
            text.contains("budget 0.5 (configured): touches / silent") && text.contains("budget 3: touches / silent"))
        #expect(html.contains("Trust budget: touches against silent errors") && html.contains("stroke=\"#b22\""))
    }

    @Test func reportsRenderEveryField() throws {
        let scored = score(label(), result(merchant: "ELSEWHERE", date: nil, total: "9.99"))
        let summary = BenchSummary(receipts: [scored])

        let text = BenchTextReport.render(summary)
        let html = BenchHTMLReport.render(summary) { _ in ("image/jpeg", Data([0xFF, 0xD8])) }
        let json = try JSONEncoder().encode(summary)

        #expect(text.contains("merchant (fuzzy)") && text.contains("0.00 (0/1)") && text.contains("p95"))
        #expect(html.contains("data:image/jpeg;base64,/9g=") && html.contains("<svg") && html.contains("ELSEWHERE"))
        #expect(try JSONDecoder().decode(BenchSummary.self, from: json) == summary)
    }

    @Test func predictionUsesTheFixtureSchema() throws {
        let draft = result(merchant: "CAFE", date: ReceiptDate(year: 2024, month: 3, day: 5), total: "8.3").draft

        let prediction = FixtureLabel(prediction: draft, dataset: "Test")
        let decoded = try FixtureLabel.decode(JSONEncoder().encode(prediction))

        #expect(decoded.total == "8.30" && decoded.date == "2024-03-05" && decoded.merchant == "CAFE")
    }

    /// The bench counts a receipt as the worker commits it: a finding of the LLM merge sends it to review even when
    /// the reconciliation alone would be accepted, and the receipt's findings and notes are listed.
    @Test func aRecordIsScoredWithTheStatusAndFindingsTheWorkerCommits() {
        let read = Reconciler(tolerance: money("0.01")).reconcile(
            ReceiptExtractor.extract(
                OCRPage(text: "CORNER CAFE\n2024-03-05\nLatte 4.50\nBagel 3.20\nSUBTOTAL 7.70\nTAX 0.62\nTOTAL 8.32")))
        let unsupported = Finding(
            .llmValueNotPrinted, field: .merchant,
            "the LLM merchant 'STARBUCKS' is not in the OCR text; kept the rules' 'CORNER CAFE' (line 1)")
        let note = Finding(.llmMerge, field: .date, "date: the rules and the LLM agree")
        let record = ExpenseRecord(
            receiptID: 1, result: read, categorization: Categorizer(rules: []).categorize(read.draft, receiptText: ""),
            extractionSource: .merged, extraFindings: [unsupported], notes: [note], ocrText: "CORNER CAFE",
            ocrConfidence: 90, llmUsage: nil, claimedAt: Date(), timings: [])

        let scored = ReceiptScorer.score(name: "r", label: label(), record: record, latency: 0.1)

        #expect(scored.status == .needsReview)
        #expect(
            scored.findings.contains(unsupported.message) && scored.findings.contains(note.message),
            "\(scored.findings)")
        #expect(scored.findings.contains { $0.contains("8.32") }, "the passed checks stay listed: \(scored.findings)")
        #expect(scored.comparison(.total)?.isCorrect == true)
        #expect(scored.ocrText == "CORNER CAFE")
    }
}
