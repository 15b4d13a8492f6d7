import Foundation

/// Categories people chose: the category of the latest expense of the same merchant that a person accepted or whose
/// category a person corrected. The categorizer asks it after the rules (a rule still wins) and before the LLM and
/// the fitted model. Merchants are the same when their names are the same words (`CategoryHistory.merchantKey`).
public protocol CategoryHistory: Sendable {
    /// The category people gave the merchant `merchant` on a receipt other than `receiptID`; nil when none.
    func learnedCategory(merchant: String, receiptID: Int64) async throws -> ExpenseCategory?
}

extension CategoryHistory {
    /// The merchant identity categories are learned under (`expenses.merchant_key`): the name's letters and digits
    /// as upper-case words (`TextSimilarity.words`); nil for a name without any.
    public static func merchantKey(_ merchant: String) -> String? {
        let words = TextSimilarity.words(merchant)
        return words.isEmpty ? nil : words
    }
}
