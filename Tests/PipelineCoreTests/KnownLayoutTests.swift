import Foundation
import PipelineCore
import Testing

/// A known merchant's learned layout — the words of its total line, the form of its date — vouches for the total and
/// date of its later receipts printed the same way, and for nothing the page contradicts (`LayoutAgreement`).
@Suite struct KnownLayoutTests {
    let reconciler = Reconciler(tolerance: money("0.01"))

    /// One receipt of the café: its total on a `TOTAL ROUNDED` line, its date day first with slashes; its items
    /// add up to the total.
    static func cafe(
        total: String, date: String, totalLine: String = "TOTAL ROUNDED", extra: [String] = []
    ) -> String {
        let items = total == "7.70" ? ["Latte 4.50", "Muffin 3.20"] : ["Latte 4.50", "Cake 7.90"]
        return
            (["CORNER CAFE", "12 HIGH STREET", "Date: \(date) 10:15"] + items + extra + [
                "\(totalLine) \(total)", "CASH 50.00",
            ]).joined(separator: "\n")
    }

    /// The café as the first receipt a person confirmed teaches it: its header, total line and date form.
    static func knownCafe() -> KnownMerchant {
        let text = cafe(total: "7.70", date: "21/02/2024")
        let draft = ReceiptExtractor.extract(OCRPage(text: text))
        let layout = MerchantLayout.printed(
            ocrText: text, total: draft.total?.value, totalLines: draft.total?.sourceLines ?? [],
            date: draft.date?.value, dateLines: draft.date?.sourceLines ?? [])
        return KnownMerchant(name: "CORNER CAFE", readings: ["CORNER CAFE"], confirmations: 1, layout: layout)
    }

    /// The fitted models with the total's threshold out of reach and the merchant's and date's at 0: the total's
    /// trust alone decides.
    var totalDecides: TrustModels {
        var models = ExtractionModel.fitted.trust[.ppocr].atBudget(AutoAcceptance.defaultMaxSilentPer100)
        models.total.threshold = 1.01
        models.merchant.threshold = 0
        models.date.threshold = 0
        return models
    }

    func decide(_ text: String, known: [KnownMerchant]) -> (ExpenseDraft, AcceptanceDecision) {
        let result = reconciler.reconcile(ReceiptExtractor.extract(OCRPage(text: text), known: known))
        return (result.draft, AutoAcceptance.decide(result, model: totalDecides))
    }

    @Test func aConfirmedReceiptTeachesItsTotalLineAndDateForm() throws {
        let layout = try #require(Self.knownCafe().layout)

        #expect(layout.totalKeywords == ["TOTAL ROUNDED"])
        #expect(layout.dateForms.map(\.description) == ["dd/mm/yyyy"])
    }

    @Test func aLaterReceiptPrintedTheSameWayHasItsTotalAndDateVouchedFor() {
        let text = Self.cafe(total: "12.40", date: "05/03/2024")

        let (_, unknown) = decide(text, known: [])
        let (draft, known) = decide(text, known: [Self.knownCafe()])

        #expect(unknown.status == .needsReview && unknown.untrusted.map(\.field) == [.total])
        #expect(known.status == .accepted, "\(known.reason)")
        #expect(known[.total]?.vouchedBy == "total printed as its known layout: TOTAL ROUNDED")
        #expect(known[.date]?.vouchedBy == "date printed as its known layout: dd/mm/yyyy")
        #expect(known.reason.contains("(total printed as its known layout: TOTAL ROUNDED)"), "\(known.reason)")
        #expect(
            draft.notes.filter { $0.code == .knownLayout }.map(\.message) == [
                "total printed as its known layout: TOTAL ROUNDED", "date printed as its known layout: dd/mm/yyyy",
            ])
    }

    @Test func aTotalLineThePageContradictsIsNotVouchedFor() {
        // Its total printed on another line than the café prints it on.
        let (otherLineDraft, otherLine) = decide(
            Self.cafe(total: "12.40", date: "05/03/2024", totalLine: "AMOUNT"), known: [Self.knownCafe()])
        // Its total line as the café prints it, and another such line with another amount.
        let (_, twoTotals) = decide(
            Self.cafe(total: "12.40", date: "05/03/2024", extra: ["TOTAL ROUNDED 99.00"]), known: [Self.knownCafe()])
        // Its total line as the café prints it, with a minus sign.
        let (negativeDraft, negative) = decide(
            Self.cafe(total: "-12.40", date: "05/03/2024"), known: [Self.knownCafe()])

        #expect(otherLineDraft.total?.value == money("12.40"))
        #expect(otherLine.status == .needsReview && otherLine[.total]?.vouchedBy == nil)
        #expect(otherLine[.date]?.vouchedBy != nil, "its date is still printed as the café prints it")
        #expect(twoTotals.status == .needsReview && twoTotals[.total]?.vouchedBy == nil)
        #expect(negativeDraft.total?.value == money("-12.40"))
        #expect(negative.status == .needsReview && negative[.total]?.vouchedBy == nil)
    }

    @Test func aDatePrintedInAnotherFormIsNotVouchedFor() {
        let (_, decision) = decide(Self.cafe(total: "12.40", date: "2024-03-05"), known: [Self.knownCafe()])

        #expect(decision[.date]?.vouchedBy == nil)
        #expect(decision[.total]?.vouchedBy != nil)
    }
}
