import Foundation

/// The rules draft and the LLM's reading merged field by field, with the findings a reviewer needs.
public struct MergedDraft: Sendable, Equatable {
    public var draft: ExpenseDraft
    /// The LLM's expense category, used when the rules found none.
    public var llmCategory: String?
    /// Item categories from the LLM, by item position, when its items were taken.
    public var llmItemCategories: [String?]
    /// Hallucination guard and reading problems; any finding sends the expense to review.
    public var findings: [String]
    /// Whether any field came from the LLM.
    public var usedLLM: Bool

    public init(draft: ExpenseDraft, llmCategory: String?, llmItemCategories: [String?], findings: [String], usedLLM: Bool) {
        self.draft = draft
        self.llmCategory = llmCategory
        self.llmItemCategories = llmItemCategories
        self.findings = findings
        self.usedLLM = usedLLM
    }

    /// The rules draft alone (no LLM configured).
    public init(rulesOnly draft: ExpenseDraft) {
        self.init(draft: draft, llmCategory: nil, llmItemCategories: [], findings: [], usedLLM: false)
    }
}

/// Merges an `LLMExtraction` into a rules `ExpenseDraft` (SPEC §4 step 7).
///
/// The LLM reads the image, so its fields win, except that an amount not printed in the OCR text (allowing OCR
/// digit confusions) never replaces one the rules read: it is only used where the rules found nothing, and is
/// flagged either way. Reconciliation then runs on the merged draft.
public enum DraftMerge {
    /// Confidence given to fields taken from the LLM (the model reports none per field).
    static let llmConfidence = 0.85

    public static func merge(rules: ExpenseDraft, llm: LLMExtraction) -> MergedDraft {
        var findings = llm.unsupportedAmounts.map { "LLM amount \($0.path) = \(moneyText($0.value)) is not in the OCR text" }
        findings += llm.fieldIssues.map { "LLM field \($0)" }
        if llm.wasTruncated { findings.append("the LLM reply was cut off; fields after the cut were dropped") }
        guard let receipt = llm.receipt else {
            findings.append("the LLM reply held nothing usable; the rules draft was kept")
            return MergedDraft(draft: rules, llmCategory: nil, llmItemCategories: [], findings: findings, usedLLM: false)
        }
        let unsupported = Set(llm.unsupportedAmounts.map(\.path))
        var draft = rules
        var used = false

        func text(_ value: String?, _ current: ExtractedField<String>?) -> ExtractedField<String>? {
            guard let value = value?.trimmingCharacters(in: .whitespacesAndNewlines), !value.isEmpty else { return current }
            used = true
            return ExtractedField(value: value, confidence: llmConfidence, sourceLines: [])
        }
        func money(_ path: String, _ value: Decimal?, _ current: ExtractedField<Decimal>?) -> ExtractedField<Decimal>? {
            guard let value else { return current }
            if unsupported.contains(path) && current != nil { return current }
            used = true
            return ExtractedField(value: value, confidence: llmConfidence, sourceLines: [])
        }

        draft.merchant = text(receipt.merchant, rules.merchant)
        if let date = receipt.date.flatMap(parseISODate) {
            draft.date = ExtractedField(value: date, confidence: llmConfidence, sourceLines: [])
            used = true
        }
        draft.currency = text(receipt.currency?.uppercased(), rules.currency)
        draft.total = money("amount", receipt.amount, rules.total)
        if draft.total != rules.total { draft.isTotalInferred = false }
        draft.subtotal = money("subtotal", receipt.subtotal, rules.subtotal)
        draft.tax = money("taxAmount", receipt.taxAmount, rules.tax)
        draft.tip = money("tip", receipt.tip, rules.tip)
        draft.fees = money("fees", receipt.fees, rules.fees)
        draft.discounts = money("discounts", receipt.discounts, rules.discounts)
        if let method = receipt.paymentMethod.flatMap(paymentMethod) {
            draft.paymentMethod = ExtractedField(value: method, confidence: llmConfidence, sourceLines: [])
            used = true
        }
        var itemCategories: [String?] = []
        let items = receipt.items.enumerated().compactMap { index, item -> (DraftLineItem, String?)? in
            guard let total = item.totalPrice, !unsupported.contains("items[\(index)].totalPrice") else { return nil }
            let line = DraftLineItem(
                name: item.name, quantity: item.quantity, unitPrice: item.unitPrice, totalPrice: total,
                confidence: llmConfidence, sourceLines: [])
            return (line, item.category)
        }
        if !items.isEmpty {
            draft.items = items.map(\.0)
            itemCategories = items.map(\.1)
            used = true
        }
        return MergedDraft(
            draft: draft, llmCategory: receipt.category, llmItemCategories: itemCategories, findings: findings,
            usedLLM: used)
    }

    private static func parseISODate(_ text: String) -> ReceiptDate? {
        let parts = text.prefix(10).split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]), parts[0] > 1900 else {
            return nil
        }
        return ReceiptDate(year: parts[0], month: parts[1], day: parts[2])
    }

    private static func paymentMethod(_ text: String) -> PaymentMethod? {
        let lowered = text.lowercased()
        if lowered.contains("cash") { return .cash }
        if lowered.contains("card") || lowered.contains("visa") || lowered.contains("master") { return .card }
        if lowered.contains("mobile") || lowered.contains("pay") { return .mobile }
        if lowered.contains("voucher") || lowered.contains("gift") { return .voucher }
        return nil
    }
}
