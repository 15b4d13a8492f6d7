import Foundation
import PipelineCore
import Testing

/// A known merchant's learned layout — the words of its total line, the form of its date — vouches for the total and
/// date of its later receipts printed the same way, and for nothing the page contradicts (`LayoutAgreement`).
@Suite struct KnownLayoutTests {
    let reconciler = Reconciler(tolerance: money("0.01"))

    /// One receipt of the café: its total on a `TOTAL ROUNDED` line, its date day first with slashes; no line items
    /// (items adding up to the total would vouch for it themselves, `AutoAcceptance.itemsVouch`).
    static func cafe(
        total: String, date: String, totalLine: String = "TOTAL ROUNDED", extra: [String] = []
    ) -> String {
        (["CORNER CAFE", "12 HIGH STREET", "Date: \(date) 10:15"] + extra + [
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

    /// The fitted models with the merchant's threshold out of reach and the date's and total's at 0: the merchant's
    /// trust alone decides.
    var merchantDecides: TrustModels {
        var models = ExtractionModel.fitted.trust[.ppocr].atBudget(AutoAcceptance.defaultMaxSilentPer100)
        models.merchant.threshold = 1.01
        models.total.threshold = 0
        models.date.threshold = 0
        return models
    }

    func decide(_ text: String, known: [KnownMerchant], model: TrustModels? = nil) -> (ExpenseDraft, AcceptanceDecision)
    {
        let result = reconciler.reconcile(ReceiptExtractor.extract(OCRPage(text: text), known: known))
        return (result.draft, AutoAcceptance.decide(result, model: model ?? totalDecides))
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
        #expect(known[.total]?.vouchedBy == .knownTotalLine(keyword: "TOTAL ROUNDED"))
        #expect(known[.date]?.vouchedBy?.description == "date printed as its known layout: dd/mm/yyyy")
        #expect(known.reason.contains("(total printed as its known layout: TOTAL ROUNDED)"), "\(known.reason)")
        #expect(
            draft.notes.filter { $0.code == .knownLayout }.map(\.message) == [
                "known merchant: confirmed 1 time, its header as a person confirmed it",
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

    @Test func aTotalWithALetterReadAsADigitIsNotVouchedFor() {
        // `I2.40` (a 1 read as I) reads as 12.40 by a look-alike repair: printed on the café's total line, but not as
        // read.
        let (draft, decision) = decide(Self.cafe(total: "I2.40", date: "05/03/2024"), known: [Self.knownCafe()])

        #expect(draft.total?.value == money("12.40"))
        #expect(decision[.total]?.vouchedBy == nil)
        #expect(decision[.date]?.vouchedBy != nil)
    }

    @Test func aConfirmedHeaderPrintedAsItsLayoutHasItsMerchantVouchedFor() {
        var cafe = Self.knownCafe()
        cafe.confirmations = 3
        cafe.personConfirmations = 3
        let text = Self.cafe(total: "12.40", date: "05/03/2024")

        let (_, unknown) = decide(text, known: [], model: merchantDecides)
        let (draft, known) = decide(text, known: [cafe], model: merchantDecides)

        #expect(unknown.status == .needsReview && unknown.untrusted.map(\.field) == [.merchant])
        #expect(known.status == .accepted, "\(known.reason)")
        #expect(
            known[.merchant]?.vouchedBy?.description
                == "known merchant: confirmed 3 times, its header as a person confirmed it")
        #expect(
            draft.notes.filter { $0.code == .knownLayout && $0.field == .merchant }.map(\.message) == [
                "known merchant: confirmed 3 times, its header as a person confirmed it"
            ])
    }

    /// A header the pipeline learned from receipts it accepted on its own says so, not that a person confirmed it.
    @Test func aHeaderTheMachineAcceptedSaysWhoAcceptedIt() {
        var cafe = Self.knownCafe()
        cafe.confirmations = 3
        cafe.personConfirmations = 0
        let (draft, known) = decide(
            Self.cafe(total: "12.40", date: "05/03/2024"), known: [cafe], model: merchantDecides)

        let expected = "known merchant: accepted 3 times, none by a person, its header as read on those receipts"
        #expect(known[.merchant]?.vouchedBy?.description == expected)
        #expect(
            draft.notes.filter { $0.code == .knownLayout && $0.field == .merchant }.map(\.message) == [expected])
    }

    @Test func aKnownNameWrappedOverTwoLinesIsReadAsTheKnownMerchant() {
        // Confirmed from a receipt that printed the name on one line; this one wraps it, the suffix read as one word.
        let bookshop = KnownMerchant(
            name: "POPULAR BOOK CO. (M) SDN BHD", readings: ["POPULAR BOOK CO M SDN BHD"], confirmations: 2)
        let text = [
            "POPULAR BOOK", "CO.(M) SDN BHD", "No 8, Jalan 7/118B, Desa Tun Razak", "56000 Kuala Lumpur",
            "Date: 03/04/2018 14:02", "NOTEBOOK A5 12.90", "TOTAL 12.90", "CASH 20.00", "CHANGE 7.10",
        ].joined(separator: "\n")

        let unknown = ReceiptExtractor.extract(OCRPage(text: text))
        let known = ReceiptExtractor.extract(OCRPage(text: text), known: [bookshop])

        #expect(unknown.merchant?.value != bookshop.name, "no line alone reads like the name as confirmed")
        #expect(known.merchant?.value == bookshop.name)
        #expect(known.merchant?.sourceLines == [0, 1])
    }

    @Test func aConfirmedHeaderIsNotEnoughWithoutTheLayoutOrWithAnotherMerchantAsAlike() {
        // Its header as confirmed, but neither its total line nor its date printed as the café prints them.
        let (_, otherLayout) = decide(
            Self.cafe(total: "12.40", date: "2024-03-05", totalLine: "AMOUNT"), known: [Self.knownCafe()],
            model: merchantDecides)
        // Another known merchant was confirmed from the same header.
        let twin = KnownMerchant(name: "Corner Cafe Ltd", readings: ["CORNER CAFE"], confirmations: 4)
        let (_, twoMerchants) = decide(
            Self.cafe(total: "12.40", date: "05/03/2024"), known: [Self.knownCafe(), twin], model: merchantDecides)

        #expect(otherLayout.status == .needsReview && otherLayout[.merchant]?.vouchedBy == nil)
        #expect(twoMerchants[.merchant]?.vouchedBy == nil)
        #expect(twoMerchants[.date]?.vouchedBy != nil, "its date is still printed as the café prints it")
    }

    @Test func aRoundingLineExplainsATotalLineBeforeIt() {
        // The café once printed its total on a `TOTAL` line too, when it needed no rounding.
        var cafe = Self.knownCafe()
        cafe.layout?.totalKeywords.append("TOTAL")
        let (rounded, explained) = decide(
            Self.cafe(total: "12.40", date: "05/03/2024", extra: ["TOTAL 12.38", "ROUNDING 0.02"]), known: [cafe])
        let (_, unexplained) = decide(
            Self.cafe(total: "12.40", date: "05/03/2024", extra: ["TOTAL 12.38"]), known: [cafe])

        #expect(rounded.total?.value == money("12.40"))
        #expect(explained[.total]?.vouchedBy == .knownTotalLine(keyword: "TOTAL ROUNDED"))
        #expect(unexplained[.total]?.vouchedBy == nil)
    }

    @Test func aTotalLinePrintingTheTotalBeforeARoundingIsLearnedForReceiptsThatNeedNone() throws {
        // The café's first receipt needed rounding: `TOTAL DUE 7.68`, `ROUNDING 0.02`, `TOTAL ROUNDED 7.70`.
        let text = Self.cafe(total: "7.70", date: "21/02/2024", extra: ["TOTAL DUE 7.68", "ROUNDING 0.02"])
        let first = ReceiptExtractor.extract(OCRPage(text: text))
        let layout = MerchantLayout.printed(
            ocrText: text, total: first.total?.value, totalLines: first.total?.sourceLines ?? [],
            date: first.date?.value, dateLines: first.date?.sourceLines ?? [])
        let cafe = KnownMerchant(name: "CORNER CAFE", readings: ["CORNER CAFE"], confirmations: 1, layout: layout)
        // A later one needing none prints its total on `TOTAL DUE` alone.
        let (draft, later) = decide(
            Self.cafe(total: "12.40", date: "05/03/2024", totalLine: "TOTAL DUE"), known: [cafe])

        #expect(first.total?.value == money("7.70"))
        #expect(layout.totalKeywords == ["TOTAL ROUNDED", "TOTAL DUE"])
        #expect(draft.total?.value == money("12.40"))
        #expect(later[.total]?.vouchedBy == .knownTotalLine(keyword: "TOTAL DUE"))
    }

    @Test func onlyATotalLineEveryLearnedReceiptPrintedItsTotalOnContradictsTheTotal() {
        let dayFirst = DateForm(order: .dayMonthYear, separator: "/", yearDigits: 4)
        // With no 6% supply, a delivery note's `TOTAL 0% SUPPLIES` prints its total too; with one, only
        // `TOTAL PAYABLE` does.
        let plain = MerchantLayout(totalKeywords: ["TOTAL SUPPLIES", "TOTAL PAYABLE"], dateForms: [dayFirst])
        let mixed = MerchantLayout(totalKeywords: ["TOTAL PAYABLE"], dateForms: [dayFirst])
        func bakery(_ layout: MerchantLayout) -> KnownMerchant {
            KnownMerchant(name: "GARDEN BAKERY", readings: ["GARDEN BAKERY"], confirmations: 2, layout: layout)
        }
        let text = [
            "GARDEN BAKERY", "Date: 30/09/2017", "WHITE BREAD 15.36", "Total 0% supplies: 15.36",
            "VANILLA CREAM 10.80", "Total 6% supplies (Inc. GST) 11.44", "Total Payable: 26.80",
        ].joined(separator: "\n")

        let (draft, both) = decide(text, known: [bakery(plain.merging(mixed))])
        let (_, plainOnly) = decide(text, known: [bakery(plain)])

        #expect(draft.total?.value == money("26.80"))
        #expect(both[.total]?.vouchedBy == .knownTotalLine(keyword: "TOTAL PAYABLE"))
        #expect(plainOnly[.total]?.vouchedBy == nil, "one receipt cannot tell which of its total lines is steady")
    }
}
