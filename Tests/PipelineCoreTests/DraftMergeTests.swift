import Foundation
import PipelineCore
import ReceiptBench
import Testing

/// The merge by evidence: each case is one the vision-LLM runs of issue 16 got wrong, on OCR text of its shape.
@Suite struct DraftMergeTests {
    private let reconciler = Reconciler(tolerance: money("0.01"))

    /// Rules extraction, the model's reply and the merge over one page, reconciled.
    private func merge(_ text: String, reply: String) -> (
        rules: ExpenseDraft, merged: MergedDraft, result: ReconciliationResult
    ) {
        let page = OCRPage(text: text)
        let rules = ReceiptExtractor.extract(page)
        let llm = LLMExtraction(replyText: reply, providerReportedTruncation: false)
        let merged = DraftMerge.merge(rules: rules, llm: llm, page: page, reconciler: reconciler)
        return (rules, merged, reconciler.reconcile(merged.draft))
    }

    private let cafe = """
        CORNER CAFE
        2024-03-15 08:12
        Latte 2 x 4.50 9.00
        Croissant 3.25
        SUBTOTAL 12.25
        TAX 1.10
        TOTAL 13.35
        """

    @Test func supportedModelFieldsAreTakenWithTheLinesThatPrintThem() {
        let reply = """
            {"merchant": "Corner Cafe", "date": "2024-03-15", "currency": "usd", "items": [
              {"name": "Latte", "quantity": 2, "unitPrice": 4.50, "totalPrice": 9.00},
              {"name": "Croissant", "quantity": 1, "unitPrice": 3.25, "totalPrice": 3.25}],
             "subtotal": 12.25, "taxAmount": 1.10, "amount": 13.35, "category": "Food & Dining"}
            """
        let (_, merged, result) = merge(cafe, reply: reply)
        #expect(merged.findings.isEmpty)
        // The same name (case and punctuation aside) keeps the rules' field.
        #expect(merged.draft.merchant?.value == "CORNER CAFE")
        #expect(merged.draft.merchant?.sourceLines == [0])
        #expect(merged.draft.total?.value == money("13.35"))
        #expect(merged.draft.total?.sourceLines == [6])
        #expect(merged.draft.date?.value == ReceiptDate(year: 2024, month: 3, day: 15))
        #expect(merged.draft.items.map(\.totalPrice) == [money("9.00"), money("3.25")])
        #expect(merged.draft.items.map(\.sourceLines) == [[2], [3]])
        #expect(merged.llmCategory == "Food & Dining")
        #expect(ReviewPolicy.decide(result).status == .accepted)
    }

    /// The first finding of issue 16: an agreeing model total lost the rules' lines, and with them the payment-line
    /// confirmation that had accepted the receipt.
    @Test func anAgreeingModelKeepsTheRulesEvidenceAndTheAcceptance() {
        let text = "KEDAI RUNCIT MAJU\n11/01/2019\nTOTAL 23.45\nCASH 50.00\nCHANGE 26.55"
        let (rules, merged, result) = merge(text, reply: #"{"merchant": "KEDAI RUNCIT MAJU", "amount": 23.45}"#)
        let rulesOnly = reconciler.reconcile(rules)
        #expect(rulesOnly.outcome == .balanced)
        #expect(
            merged.draft.total
                == rules.total.map { field in
                    var field = field
                    field.confidence = max(field.confidence, 0.85)
                    return field
                })
        // The merged reading keeps the rules' evidence, with the fields both readers agree on marked: the same
        // outcome, and each of those fields at least as trusted as on the rules' reading alone.
        var confirmed = rules.evidence
        confirmed?.confirmedByModel = [.merchant, .total]
        #expect(result.outcome == rulesOnly.outcome && result.draft.evidence == confirmed)
        let (alone, agreed) = (AutoAcceptance.decide(rulesOnly), AutoAcceptance.decide(result))
        for field in [KeyField.merchant, .total] {
            #expect(agreed[field]!.probability > alone[field]!.probability)
        }
        #expect(agreed[.date] == alone[.date])
        #expect(merged.findings.isEmpty)
    }

    /// An OCR misread total (`73.45`) loses to the model's `23.45` when subtotal and tax add up to it.
    @Test func theArithmeticPicksTheModelsTotalOverAnOCRMisread() {
        let text = "HARDWARE SHOP\nSUBTOTAL 20.00\nTAX 3.45\nTOTAL 73.45"
        let (rules, merged, result) = merge(text, reply: #"{"subtotal": 20.00, "taxAmount": 3.45, "amount": 23.45}"#)
        #expect(rules.total?.value == money("73.45"))
        #expect(merged.draft.total?.value == money("23.45"))
        #expect(merged.draft.total?.sourceLines == rules.total?.sourceLines)
        #expect(merged.notes.contains { $0.message.contains("23.45") && $0.message.contains("arithmetic confirms") })
        #expect(merged.findings.isEmpty)
        #expect(result.outcome == .balanced)
        // Acceptance is calibrated on the rules' own ranking of totals: a total the model chose goes to a person.
        #expect(ReviewPolicy.decide(result).status == .needsReview)
    }

    @Test func aModelTotalNothingConfirmsNeverReplacesThePrintedOneAndIsFlagged() {
        let (_, merged, _) = merge(cafe, reply: #"{"merchant": "Corner Cafe", "amount": 97.35}"#)
        #expect(merged.draft.total?.value == money("13.35"))
        #expect(merged.findings.contains { $0.message.contains("97.35") && $0.message.contains("not in the OCR text") })
    }

    /// An invented subtotal is not stored where the rules had none: no subtotal line is printed.
    /// An amount other than the total that the page does not print is left out with a note; it does not hold the
    /// receipt (the key fields' trust decides), where an unprinted total does.
    @Test func anInventedSubtotalIsLeftOut() {
        let text = "NOODLE HOUSE\nFried noodles 5.00\nIced tea 7.00\nTOTAL 12.00"
        let (rules, merged, _) = merge(text, reply: #"{"subtotal": 11.00, "amount": 12.00}"#)
        #expect(rules.subtotal == nil)
        #expect(merged.draft.subtotal == nil)
        #expect(merged.notes.contains { $0.message.contains("subtotal 11.00") && $0.message.contains("left out") })
        #expect(merged.findings.isEmpty)
    }

    /// Issue 40: the model names the merchant from the line the rules read it from, reading more of it (the label's
    /// `PaneraBread Cafe0994` where the rules read `PANERA BREAD`). Before, the model's name replaced the rules' and
    /// lost the ranking's evidence (probability 0, "it did not come from the ranked candidates"); now the ranking of
    /// that line vouches for it, with the model's agreement.
    @Test func aModelNameReadingMoreOfTheRulesLineKeepsTheRankingsEvidence() {
        let text = "PANERA BREAD\nCAFE 0994\n2024-03-15 08:12\nBagel 3.25\nLatte 4.50\nTOTAL 7.75"
        let (rules, merged, result) = merge(text, reply: #"{"merchant": "Panera Bread Cafe 0994", "amount": 7.75}"#)
        #expect(rules.merchant?.value == "PANERA BREAD" && rules.merchant?.sourceLines == [0])
        #expect(merged.draft.merchant?.value == "Panera Bread Cafe 0994")
        #expect(merged.draft.merchant?.sourceLines == [0, 1])
        #expect(merged.draft.evidence?.merchantValue == "Panera Bread Cafe 0994")
        #expect(merged.draft.evidence?.confirmedByModel.contains(.merchant) == true)
        #expect(merged.notes.contains { $0.message.contains("from the same line") })
        let alone = AutoAcceptance.decide(reconciler.reconcile(rules))[.merchant]!.probability
        #expect(AutoAcceptance.decide(result)[.merchant]!.probability > alone)
    }

    /// A model name beginning with the rules' printed name and going on past what the page shows (`NOVOTEL` →
    /// `NOVOTEL NOVOTELPEKANBARU PEKANBARU`, a label joining its name boxes) agrees with the rules: the printed name
    /// is kept and confirmed, not flagged. A name that merely holds the rules' one elsewhere is still flagged.
    @Test func aModelNameRunningPastThePrintedOneConfirmsTheRulesName() {
        let text = "NOVOTEL\nJL. SUDIRMAN 12\n2024-03-15\nROOM 120.00\nTOTAL 120.00"
        let (rules, merged, _) = merge(
            text, reply: #"{"merchant": "NOVOTEL NOVOTELPEKANBARU PEKANBARU", "amount": 120.00}"#)
        #expect(rules.merchant?.value == "NOVOTEL")
        #expect(merged.draft.merchant?.value == "NOVOTEL")
        #expect(merged.findings.isEmpty)
        #expect(merged.draft.evidence?.confirmedByModel.contains(.merchant) == true)
        let (_, elsewhere, _) = merge(text, reply: #"{"merchant": "HOTEL BY NOVOTEL", "amount": 120.00}"#)
        #expect(elsewhere.draft.merchant?.value == "NOVOTEL")
        #expect(elsewhere.findings.contains { $0.code == .llmValueNotPrinted && $0.field == .merchant })
        #expect(elsewhere.draft.evidence?.confirmedByModel.contains(.merchant) == false)
    }

    /// An invented item whose price is printed, but on the cash line, is dropped and listed; the rules' items stay.
    @Test func aModelItemCountsOnlyWhenItsPriceIsOnAnItemLine() {
        let text = "NOODLE HOUSE\n03/15/2024\nFried noodles 5.00\nIced tea 3.00\nTOTAL 8.00\nCASH 10.00\nCHANGE 2.00"
        let reply = """
            {"items": [{"name": "Fried noodles", "totalPrice": 5.00}, {"name": "Iced tea", "totalPrice": 3.00},
             {"name": "Service charge", "totalPrice": 10.00}], "amount": 8.00}
            """
        let (_, merged, result) = merge(text, reply: reply)
        #expect(!merged.draft.items.contains { $0.name == "Service charge" })
        #expect(merged.draft.items.map(\.totalPrice) == [money("5.00"), money("3.00")])
        #expect(
            merged.notes.contains {
                $0.message.contains("'Service charge' 10.00") && $0.message.contains("not an item line")
            })
        // A dropped item is a note, not a finding: it holds nothing back (each key field's trust decides).
        #expect(merged.findings.isEmpty)
        #expect(result.outcome == .balanced)
    }

    /// The second finding of issue 16: `Starbucks Coffee` on a KOHL'S receipt.
    @Test func aMerchantTheTextDoesNotShowIsFlaggedAndTheRulesNameKept() {
        let text = "KOHL'S\n1200 MAIN ST\nDALLAS, TX 75201\n03/15/2024\nSHIRT 19.99\nTOTAL 19.99\nVISA 19.99"
        let (rules, merged, _) = merge(text, reply: #"{"merchant": "Starbucks Coffee", "amount": 19.99}"#)
        #expect(merged.draft.merchant?.value == rules.merchant?.value)
        #expect(merged.draft.merchant?.value != "Starbucks Coffee")
        #expect(
            merged.findings.contains {
                $0.message.contains("Starbucks Coffee") && $0.message.contains("not in the OCR text")
            })
    }

    @Test func aMerchantIsFoundThroughOCRSlips() {
        let text = "C0RNER CAFF\nLatte 9.00\nTOTAL 9.00"
        let (_, merged, _) = merge(text, reply: #"{"merchant": "Corner Cafe", "amount": 9.00}"#)
        #expect(merged.draft.merchant?.value == "Corner Cafe")
        #expect(merged.draft.merchant?.sourceLines == [0])
        #expect(merged.findings.isEmpty)
    }

    @Test func aDateTheTextDoesNotShowIsFlaggedAndTheRulesDateKept() {
        let (rules, merged, _) = merge(cafe, reply: #"{"date": "2023-03-16", "amount": 13.35}"#)
        #expect(merged.draft.date == rules.date)
        #expect(merged.findings.contains { $0.message.contains("2023-03-16") && $0.message.contains("not printed") })
    }

    /// `04/03/2019` on a Malaysian receipt reads 4 March by the rules (ringgit: day first); the model's 3 April is the same print read
    /// month first, so it counts as printed (and the disagreement is noted).
    @Test func aDateCountsAsPrintedInEitherDayMonthOrder() {
        let text = "KEDAI MAJU SDN BHD\nDATE: 04/03/2019\nTOTAL RM 8.20"
        let (rules, merged, _) = merge(text, reply: #"{"date": "2019-04-03", "amount": 8.20}"#)
        #expect(rules.date?.value == ReceiptDate(year: 2019, month: 3, day: 4))
        #expect(merged.draft.date?.value == ReceiptDate(year: 2019, month: 4, day: 3))
        #expect(merged.draft.date?.sourceLines == [1])
        #expect(merged.findings.isEmpty)
        #expect(merged.notes.contains { $0.message.contains("date") && $0.message.contains("2019-04-03") })
    }

    /// PP-OCR often reads a date and its time as one word (`19-Sep-20157:23:34P`, `Date :12-03-201810:13:04`: 16 of
    /// the 552 training pages); the date is still printed there.
    @Test(arguments: ["19-Sep-20157:23:34P", "Date :19-09-201510:13:04", "TIME 19/09/201503:43:44 PM"])
    func aDateRunIntoItsTimeCountsAsPrinted(line: String) {
        let text = "RED HAWK\n\(line)\nNachos $11.00\nTotal $11.00"
        let (_, merged, _) = merge(text, reply: #"{"date": "2015-09-19", "amount": 11.00}"#)
        #expect(merged.draft.date?.value.description == "2015-09-19")
        #expect(merged.draft.date?.sourceLines == [1])
        #expect(merged.findings.isEmpty)
    }

    /// Only a time splits from the year: more digits after it are not a date.
    @Test func aYearRunIntoOtherDigitsIsNotADate() {
        let text = "RED HAWK\nREF 19-09-201512345\nNachos $11.00\nTotal $11.00"
        let (_, merged, _) = merge(text, reply: #"{"date": "2015-09-19", "amount": 11.00}"#)
        #expect(merged.findings.contains { $0.message.contains("2015-09-19") && $0.message.contains("not printed") })
    }

    @Test func unusableReplyKeepsTheRulesDraftWithAFinding() {
        let page = OCRPage(text: cafe)
        let rules = ReceiptExtractor.extract(page)
        let merged = DraftMerge.merge(
            rules: rules,
            llm: LLMExtraction(
                replyText: "I cannot read this receipt.", providerReportedTruncation: false),
            page: page, reconciler: reconciler)
        #expect(!merged.usedLLM)
        #expect(merged.draft == rules)
        #expect(merged.findings.contains { $0.message.contains("nothing usable") })
    }
}
