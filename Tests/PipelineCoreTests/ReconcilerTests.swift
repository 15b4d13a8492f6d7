import Foundation
import PipelineCore
import Testing

@Suite struct ReconcilerTests {
    let reconciler = Reconciler(tolerance: money("0.01"))

    func field(_ text: String, line: Int, confidence: Double = 0.9) -> ExtractedField<Decimal> {
        ExtractedField(value: money(text), confidence: confidence, sourceLines: [line])
    }

    func item(_ name: String, _ total: String, quantity: Decimal? = nil, unit: String? = nil, line: Int)
        -> DraftLineItem
    {
        DraftLineItem(
            name: name, quantity: quantity, unitPrice: unit.map(money), totalPrice: money(total), confidence: 0.9,
            sourceLines: [line])
    }

    @Test func balancedReceiptIsAccepted() {
        let draft = ExpenseDraft(
            subtotal: field("7.70", line: 3), tax: field("0.62", line: 4), total: field("8.32", line: 5),
            items: [item("Latte", "4.50", quantity: 1, unit: "4.50", line: 1), item("Bagel", "3.20", line: 2)])

        let result = reconciler.reconcile(draft)

        #expect(result.outcome == .balanced)
        #expect(result.findings.allSatisfy { $0.passed })
        #expect(result.findings.map(\.check) == [.itemsToSubtotal, .summaryToTotal])
    }

    @Test func taxInclusiveReceiptBalances() {
        let draft = ExpenseDraft(
            subtotal: field("18.90", line: 5), tax: field("1.07", line: 6), total: field("18.90", line: 7))

        let result = reconciler.reconcile(draft)

        #expect(result.outcome == .balanced)
        #expect(result.findings.contains { $0.message.hasPrefix("tax 1.07 is already in the subtotal") })
    }

    /// No subtotal, a tax line: European prices include the tax (Σ items = total), American ones do not (Σ items +
    /// tax = total); either confirms the total, and neither is no evidence against it.
    @Test(arguments: [("17.25", "2.25", true), ("15.00", "2.25", true), ("12.00", "2.25", false)])
    func itemsConfirmTheTotalWithTaxIncludedOrAdded(_ itemsSum: String, _ tax: String, _ confirms: Bool) {
        let draft = ExpenseDraft(
            tax: field(tax, line: 6), total: field("17.25", line: 5),
            items: [item("Butter", "2.00", line: 1), item("Brot", (money(itemsSum) - 2).description, line: 2)])

        let result = reconciler.reconcile(draft)

        #expect(result.outcome == (confirms ? .balanced : .incomplete))
        #expect(result.findings.contains { $0.check == .itemsToTotal && $0.passed } == confirms)
        #expect(!result.findings.contains { $0.check == .itemsToTotal && !$0.passed })
    }

    @Test func discountIsSubtracted() {
        let draft = ExpenseDraft(
            subtotal: field("95.50", line: 14), discounts: field("5.50", line: 16), total: field("90.00", line: 17),
            items: [item("Antipasto", "50.00", line: 8), item("Vino", "45.50", line: 9)])

        let result = reconciler.reconcile(draft)

        #expect(result.outcome == .balanced)
    }

    /// A discount printed among the items is already taken off the subtotal: Σ items less it is the subtotal, and the
    /// summary does not take it off again. One printed below the subtotal is taken off there.
    @Test(arguments: [
        ["Final Touch 39.99", "Dissolve-All 20.00", "Lube Wash Coupon -13.99", "Subtotal 46.00", "Total 46.00"],
        ["Final Touch 39.99", "Dissolve-All 20.00", "Subtotal 59.99", "Lube Wash Coupon -13.99", "Total 46.00"],
    ])
    func aDiscountAmongTheItemsIsInTheSubtotal(_ body: [String]) {
        let page = OCRPage(text: (["CORNER CAR WASH", "02/20/2016"] + body).joined(separator: "\n"))

        let result = reconciler.reconcile(ReceiptExtractor.extract(page))

        #expect(result.draft.discounts?.value == money("13.99"))
        #expect(result.outcome == .balanced, "\(result.findings.map(\.message))")
        #expect(result.findings.contains { $0.check == .itemsToSubtotal && $0.passed })
        #expect(result.findings.contains { $0.check == .summaryToTotal && $0.passed })
    }

    @Test func singleMisreadDigitIsRepairedWhenTheCorrectValueIsPrinted() {
        // The subtotal 38.50 was read as 36.50; 38.50 is printed again on the receipt (e.g. the item column).
        let draft = ExpenseDraft(
            subtotal: field("36.50", line: 3), tax: field("3.08", line: 4), total: field("41.58", line: 5),
            amountsInText: [money("38.50"), money("36.50"), money("3.08"), money("41.58")])

        let result = reconciler.reconcile(draft)

        #expect(result.outcome == .repaired)
        #expect(result.draft.subtotal?.value == money("38.50"))
        #expect(result.draft.total?.value == money("41.58"))
        #expect(result.findings.contains { $0.check == .repair && $0.message.contains("36.50 was corrected to 38.50") })
    }

    @Test func twoRepairsThatBothBalanceAreNotApplied() {
        // 47.70 → 41.70 balances with tax added, 47.70 → 47.10 balances tax-inclusive: the page does not say which.
        let draft = ExpenseDraft(
            subtotal: field("47.70", line: 3), tax: field("5.40", line: 4), total: field("47.10", line: 5),
            amountsInText: [money("41.70"), money("47.70"), money("5.40"), money("47.10")])

        let result = reconciler.reconcile(draft)

        #expect(result.outcome == .unbalanced)
        #expect(result.draft.subtotal?.value == money("47.70"))
    }

    /// A repair that would lose a passing check is none: the payment of the total as read (`CASH : 35.00`) stops
    /// confirming it once the total is changed to the subtotal's misread `36.00`, so the total stays as printed.
    @Test func aRepairThatLosesAPassingCheckIsNotApplied() {
        let draft = ExpenseDraft(
            subtotal: field("36.00", line: 17), total: field("35.00", line: 18),
            amountTendered: field("35.00", line: 22, confidence: 0.9),
            items: [
                item("Rice", "15.00", line: 11), item("Beverage", "5.00", line: 13), item("Noodle", "16.00", line: 15),
            ],
            amountsInText: [money("15.00"), money("5.00"), money("16.00"), money("36.00"), money("35.00")])

        let result = reconciler.reconcile(draft)

        #expect(result.outcome == .unbalanced)
        #expect(result.draft.total?.value == money("35.00"))
        #expect(result.findings.contains { $0.check == .paymentToTotal && $0.passed })
    }

    @Test func printedTotalIsNeverOverriddenByArithmeticAlone() {
        // Arithmetic says 47.10 → 41.10 would balance, but 41.10 is printed nowhere: no repair.
        let draft = ExpenseDraft(
            subtotal: field("38.00", line: 3), tax: field("3.10", line: 4),
            total: field("47.10", line: 5, confidence: 0.2),
            amountsInText: [money("38.00"), money("3.10"), money("47.10")])

        let result = reconciler.reconcile(draft)

        #expect(result.outcome == .unbalanced)
        #expect(result.draft.total?.value == money("47.10"))
    }

    @Test func unbalancedReceiptGoesToReviewWithAReadableFinding() {
        let draft = ExpenseDraft(
            total: field("47.10", line: 9),
            items: [item("A", "20.00", line: 1), item("B", "21.70", line: 2)])

        let result = reconciler.reconcile(draft)

        #expect(result.outcome == .unbalanced)
        #expect(ReviewPolicy.decide(result).status == .needsReview)
        #expect(
            result.findings.map(\.message).contains(
                "line items sum to 41.70 but the printed total is 47.10 (off by 5.40, tolerance 0.01)"))
    }

    /// The amounts printed between the last subtotal (or net amount, or an earlier total such as a card slip's amount
    /// before the tip) and the total are the page's own summary, whatever their lines are called: a tax line no
    /// lexicon names (`Food - Bulk 6.625%`), a tax amount on a line of its own, a second tax, a signed round-off and a
    /// tip all count, so the total is confirmed without a keyword for each.
    @Test(arguments: [
        (["Almonds 6.58", "Sub Total: 6.58", "Food - Bulk 6.625% 0.44", "Total 7.02"], "7.02", 1),
        (["Burrito 9.70", "Subtotal 9.70", "0.60", "Total 10.30"], "10.30", 1),
        (["Gyros 129,75", "Netto(1) Eur 129,75", "+ 19,0% MwSt: 24,65", "Summe: Eur 154,40"], "154.40", 1),
        (["CREDIT SALE", "AMOUNT $85.58", "TIP $12.84", "TOTAL $98.42"], "98.42", 1),
        (
            ["Buffet 314.00", "SUB TOTAL 314.00", "ST 6% 18.84", "Levy 2% 6.28", "Round off -0.12", "TOTAL 339.00"],
            "339.00", 3
        ),
    ])
    func amountsPrintedBetweenSubtotalAndTotalConfirmIt(_ body: [String], _ total: String, _ terms: Int) {
        let page = OCRPage(text: (["CORNER CAFE", "12/03/2024"] + body).joined(separator: "\n"))

        let result = reconciler.reconcile(ReceiptExtractor.extract(page))

        #expect(result.draft.total?.value == money(total))
        #expect(result.outcome == .balanced, "\(result.findings.map(\.message))")
        let amounts = terms == 1 ? "1 amount" : "\(terms) amounts"
        #expect(
            result.findings.contains {
                $0.check == .summaryToTotal && $0.passed
                    && $0.message
                        == "the summary printed above the total (a subtotal, net amount or earlier total and the \(amounts) below it) sums to \(total), matching the printed total \(total)"
            }, "\(result.findings.map(\.message))")
    }

    /// A total restated after a rounding is the rounding check's, not a summary: a rounding's sign is often unclear
    /// (`~0.01`), and within the tolerance either sign would make a one-cent "repair" of the printed total pass
    /// (Tesseract's reading of a SROIE receipt, whose label is the printed 23.25).
    @Test func anEarlierTotalAndARoundingBelowItAreNoSummary() {
        let page = OCRPage(
            text: [
                "BANH MI CAFE", "Date: 29-10-2017 18:31:45", "1 SUONG NON RAM CHUA 9.90 SR", "1 TAU HU GON 9.90 SR",
                "1 TRA DA 1.50 SR", "Total (Excluding GST): 21,30", "Serv. Charge (3%): v.65", "GST payable (6%): 1.31",
                "Total (Inclusive of GST): 23.26", "Rounding Adj: ~0.01", "TOTAL: 23.25",
            ].joined(separator: "\n"))

        let result = reconciler.reconcile(ReceiptExtractor.extract(page))

        #expect(result.draft.total?.value == money("23.25"), "\(result.findings.map(\.message))")
        #expect(!result.findings.contains { $0.message.hasPrefix("the summary printed above the total") })
    }

    /// Amounts that do not add up to the total confirm nothing, and a payment line between the subtotal and the total
    /// is not part of the summary (`CASH 0.60` is not a tax, though it makes up the difference).
    @Test(arguments: [
        ["Almonds 6.58", "Sub Total: 6.58", "Food - Bulk 6.625% 0.44", "Total 7.20"],
        ["Burrito 9.70", "Subtotal 9.70", "CASH 0.60", "Total 10.30"],
    ])
    func amountsThatDoNotMakeTheSummaryConfirmNothing(_ body: [String]) {
        let page = OCRPage(text: (["CORNER CAFE", "12/03/2024"] + body).joined(separator: "\n"))

        let result = reconciler.reconcile(ReceiptExtractor.extract(page))

        #expect(result.outcome == .unbalanced, "\(result.findings.map(\.message))")
        #expect(result.findings.contains { $0.check == .summaryToTotal && !$0.passed })
    }

    @Test func tenderedLessChangeConfirmsTheTotal() {
        let draft = ExpenseDraft(
            total: field("8.20", line: 9), amountTendered: field("50.00", line: 10), change: field("41.80", line: 11))

        let result = reconciler.reconcile(draft)

        #expect(result.outcome == .balanced)
        #expect(
            result.findings.map(\.message) == ["amount tendered less change is 8.20, matching the printed total 8.20"])
    }

    /// A register that prints the payment as a credit (`Cash -50.00`, dev sroie_153): tendered by its magnitude.
    @Test func aPaymentPrintedAsACreditConfirmsTheTotal() {
        let page = OCRPage(
            text: "POPULAR BOOK\nTotal RM Incl. of GST 14.65\nCash -50.00\nCHANGE 35.35\nThank you")

        let result = reconciler.reconcile(ReceiptExtractor.extract(page))

        #expect(
            result.findings.contains { $0.check == .paymentToTotal && $0.passed }, "\(result.findings.map(\.message))")
    }

    /// A register that prints the item count and the change on one line (`Item Count 12 Change Amt 22.65`): the
    /// keyword after the count's number names the amount, so the change confirms the total; a count alone stays a
    /// count, whatever its words (`Total Qty Tender : 2`).
    @Test func theChangeAfterTheItemCountOnItsLineConfirmsTheTotal() {
        let page = OCRPage(
            text: "AEON CO. (M) BHD\nTotal After Adj Incl GST 127.35\nCASH 150.00\nItem Count 12 Change Amt 22.65")
        let countOnly = OCRPage(text: "AEON CO. (M) BHD\nTOTAL 127.35\nCASH 150.00\nChange 22.65\nTotal Qty Tender : 2")

        let result = reconciler.reconcile(ReceiptExtractor.extract(page))

        #expect(result.draft.change?.value == money("22.65"))
        #expect(
            result.findings.map(\.message).contains(
                "amount tendered less change is 127.35, matching the printed total 127.35"),
            "\(result.findings.map(\.message))")
        let counted = ReceiptExtractor.extract(countOnly)
        #expect(counted.amountTendered?.value == money("150.00"))
        #expect(counted.change?.value == money("22.65"))
    }

    /// `AMOUNT TENDER 20.00` is the payment, not an amount line that could be the total.
    @Test func anAmountTenderedWithoutItsEndingIsThePayment() {
        let page = OCRPage(text: "BURGER PLACE\nCOMBO 17.26\nHST 2.24\n19.50\nAMOUNT TENDER 20.00\nCHANGE DUE 0.50")

        let result = reconciler.reconcile(ReceiptExtractor.extract(page))

        #expect(result.draft.amountTendered?.value == money("20.00"))
        #expect(result.draft.total?.value == money("19.50"))
    }

    @Test func wrongChangeLeavesTheReceiptUnbalanced() {
        let draft = ExpenseDraft(
            total: field("8.20", line: 9), amountTendered: field("50.00", line: 10), change: field("40.80", line: 11))

        #expect(reconciler.reconcile(draft).outcome == .unbalanced)
    }

    @Test func paymentEqualToTheTotalConfirmsItOnlyWhenReadClearly() {
        let clear = ExpenseDraft(
            total: field("13.00", line: 9), amountTendered: field("13.00", line: 12, confidence: 0.9))
        let unclear = ExpenseDraft(
            total: field("730.00", line: 9), amountTendered: field("730.00", line: 12, confidence: 0.5))

        #expect(reconciler.reconcile(clear).outcome == .balanced)
        #expect(reconciler.reconcile(unclear).outcome == .incomplete)
    }

    @Test func missingTotalIsIncomplete() {
        let result = reconciler.reconcile(ExpenseDraft(subtotal: field("5.00", line: 1)))

        #expect(result.outcome == .incomplete)
        #expect(ReviewPolicy.decide(result).status == .needsReview)
        #expect(result.findings.first?.check == .missingTotal)
    }

    @Test func totalThatNothingConfirmsIsIncomplete() {
        let result = reconciler.reconcile(ExpenseDraft(total: field("12.00", line: 4)))

        #expect(result.outcome == .incomplete)
        #expect(result.findings.contains { $0.check == .nothingToCheck })
    }

    @Test func totalReadFromTheSubtotalLineConfirmsNothing() {
        let draft = ExpenseDraft(subtotal: field("192.53", line: 26), total: field("192.53", line: 26))

        #expect(reconciler.reconcile(draft).outcome == .incomplete)
    }

    @Test func inferredTotalIsNeverConfirmedByTheAmountsItWasTakenFrom() {
        // Panda Express: "SubTotal 8.08" (a misread 8.88), "TAX 9.61" (0.61), "Total" illegible; the total was taken
        // from the only item. Repairing the subtotal would make every check pass without a printed total.
        var draft = ExpenseDraft(
            subtotal: field("8.08", line: 11), total: field("8.88", line: 5), isTotalInferred: true,
            items: [item("3-ENTREE PLATE", "8.88", line: 5)], amountsInText: [money("8.88"), money("8.08")])
        var result = reconciler.reconcile(draft)
        #expect(result.outcome == .unbalanced)

        draft.subtotal = field("8.88", line: 11)
        result = reconciler.reconcile(draft)
        #expect(result.outcome == .incomplete)
        #expect(
            result.findings.last?.message
                == "no total line could be read: 8.88 is the subtotal or the line items' sum taken as the total; check the printed total"
        )

        draft.isTotalInferred = false
        #expect(reconciler.reconcile(draft).outcome == .balanced)
    }

    @Test func printedCashRoundingExplainsTheDifferenceInsteadOfARepair() {
        // SSAMBAP: 36.00 + service 3.60 + GST 2.38 = 41.98, "Rounding 0.02", "Total 42".
        var draft = ExpenseDraft(
            subtotal: field("36.00", line: 14), tax: field("2.38", line: 16, confidence: 0.4),
            fees: field("3.60", line: 15),
            rounding: field("0.02", line: 17), total: field("42.00", line: 18), amountsInText: [money("2.39")])

        var result = reconciler.reconcile(draft)
        #expect(result.outcome == .balanced)
        #expect(result.draft.tax?.value == money("2.38"))
        #expect(
            result.findings.map(\.message) == [
                "subtotal − discounts + fees + tax + tip is 41.98, the printed total 42.00 after rounding by 0.02"
            ])

        draft.rounding = nil
        result = reconciler.reconcile(draft)
        #expect(result.outcome == .repaired)
        #expect(result.draft.tax?.value == money("2.39"))
    }

    /// A total printed before cash rounding (`Total 72.93`, `RND ADJ 0.02`) is paid, and may be summed, as the rounded
    /// amount: a difference of exactly the printed rounding passes the payment and items checks; another does not.
    @Test(arguments: [("0.02", true), ("0.05", false)])
    func printedCashRoundingExplainsPaymentAndItemsOffByIt(_ rounding: String, _ passes: Bool) {
        let draft = ExpenseDraft(
            rounding: field(rounding, line: 4), total: field("72.93", line: 3),
            amountTendered: field("73.00", line: 5), change: field("0.05", line: 6))
        var withItems = draft
        withItems.items = [item("Nasi lemak", "35.66", line: 1), item("Milo", "37.25", line: 2)]
        withItems.amountTendered = nil

        let payment = reconciler.reconcile(draft).findings.first { $0.check == .paymentToTotal }
        let items = reconciler.reconcile(withItems).findings.first { $0.check == .itemsToTotal }

        #expect(payment?.passed == passes)
        #expect(items?.passed == passes)
        if passes {
            #expect(
                payment?.message
                    == "amount tendered less change is 72.95, matching the printed total 72.93 after rounding by 0.02")
        }
    }

    /// Cash is paid rounded to five cents where the smallest coins are gone, often with no rounding line printed: a
    /// payment that is the total so rounded passes; one off by as much but the other way does not.
    @Test(arguments: [("72.93", true), ("72.97", true), ("72.92", false), ("72.98", false)])
    func paymentRoundedToFiveCentsForCashMatchesTheTotal(_ total: String, _ passes: Bool) {
        let draft = ExpenseDraft(
            total: field(total, line: 3), amountTendered: field("73.00", line: 5), change: field("0.05", line: 6))

        let result = reconciler.reconcile(draft)

        #expect(result.outcome == (passes ? .balanced : .unbalanced))
        if passes {
            #expect(
                result.findings.map(\.message) == [
                    "amount tendered less change is 72.95, the printed total \(total) rounded to the nearest 0.05 for cash"
                ])
        }
    }

    @Test func quantityTimesUnitPriceMismatchIsReported() {
        let draft = ExpenseDraft(
            total: field("9.00", line: 5), items: [item("Tea", "9.00", quantity: 2, unit: "4.00", line: 1)])

        let result = reconciler.reconcile(draft)

        #expect(result.outcome == .unbalanced)
        #expect(result.findings.contains { $0.message == "'Tea': 2.00 × 4.00 = 8.00 but the line total is 9.00" })
    }

    @Test func aWiderToleranceAcceptsAWiderDifference() {
        let draft = ExpenseDraft(
            subtotal: field("10.00", line: 1), tax: field("0.60", line: 2), total: field("10.63", line: 3))

        #expect(Reconciler(tolerance: money("0.05")).reconcile(draft).outcome == .balanced)
        #expect(reconciler.reconcile(draft).outcome == .unbalanced)
    }
}
