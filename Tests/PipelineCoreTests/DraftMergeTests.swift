import Foundation
import PipelineCore
import Testing

@Suite struct DraftMergeTests {
    private let ocrText = "CORNER CAFE\nLatte 2 x 4.50 9.00\nCroissant 3.25\nSUBTOTAL 12.25\nTAX 1.10\nTOTAL 13.35"

    private func rules(total: String?) -> ExpenseDraft {
        ExpenseDraft(
            merchant: ExtractedField(value: "CORNER CAF", confidence: 0.6, sourceLines: [0]),
            total: total.map { ExtractedField(value: Decimal(string: $0)!, confidence: 0.7, sourceLines: [5]) })
    }

    @Test func supportedLLMFieldsWinAndItemsAreTaken() {
        let reply = """
            {"merchant": "Corner Cafe", "date": "2024-03-15", "currency": "usd", "items": [
              {"name": "Latte", "quantity": 2, "unitPrice": 4.50, "totalPrice": 9.00},
              {"name": "Croissant", "quantity": 1, "unitPrice": 3.25, "totalPrice": 3.25}],
             "subtotal": 12.25, "taxAmount": 1.10, "amount": 13.35, "category": "Food & Dining"}
            """
        let merged = DraftMerge.merge(
            rules: rules(total: nil),
            llm: LLMExtraction(replyText: reply, providerReportedTruncation: false, ocrText: ocrText))
        #expect(merged.usedLLM)
        #expect(merged.findings.isEmpty)
        #expect(merged.draft.merchant?.value == "Corner Cafe")
        #expect(merged.draft.total?.value == Decimal(string: "13.35")!)
        #expect(merged.draft.date?.value == ReceiptDate(year: 2024, month: 3, day: 15))
        #expect(merged.draft.currency?.value == "USD")
        #expect(merged.draft.items.map(\.totalPrice) == [Decimal(string: "9.00")!, Decimal(string: "3.25")!])
        #expect(merged.llmCategory == "Food & Dining")
    }

    @Test func anAmountMissingFromTheTextNeverReplacesTheRulesValueAndIsFlagged() {
        let reply = #"{"merchant": "Corner Cafe", "amount": 97.35}"#
        let merged = DraftMerge.merge(
            rules: rules(total: "13.35"),
            llm: LLMExtraction(replyText: reply, providerReportedTruncation: false, ocrText: ocrText))
        #expect(merged.draft.total?.value == Decimal(string: "13.35")!)
        #expect(merged.findings.contains { $0.contains("97.35") && $0.contains("not in the OCR text") })
    }

    @Test func unusableReplyKeepsTheRulesDraftWithAFinding() {
        let merged = DraftMerge.merge(
            rules: rules(total: "13.35"),
            llm: LLMExtraction(replyText: "I cannot read this receipt.", providerReportedTruncation: false, ocrText: ocrText))
        #expect(!merged.usedLLM)
        #expect(merged.draft == rules(total: "13.35"))
        #expect(merged.findings.contains { $0.contains("nothing usable") })
    }
}
