import Foundation

/// Categories people chose: the category of the latest expense of the same merchant that a person accepted or whose
/// category a person corrected. The categorizer asks it after the rules (a rule still wins) and before the LLM and
/// the fitted model. Merchants are the same when their names are the same words (`CategoryHistory.merchantKey`).
public protocol CategoryHistory: Sendable {
    /// The category people gave the merchant `merchant` on a receipt other than `receiptID`; nil when none.
    func learnedCategory(merchant: String, receiptID: Int64) async throws -> ExpenseCategory?
}

extension CategoryHistory {
    /// The merchant identity categories are learned under: the name's letters and digits as upper-case words, the
    /// way the database's `normalized_words` reads it; nil for a name without any.
    public static func merchantKey(_ merchant: String) -> String? {
        let words = merchant.uppercased().components(separatedBy: CharacterSet.alphanumerics.inverted)
            .filter { !$0.isEmpty }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
