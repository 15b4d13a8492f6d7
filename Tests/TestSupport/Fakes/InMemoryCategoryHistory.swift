import PipelineCore

/// An in-memory `CategoryHistory` for tests: decisions recorded by merchant key.
public actor InMemoryCategoryHistory: CategoryHistory {
    private var decisions: [String: (receiptID: Int64, category: ExpenseCategory)] = [:]

    public init() {}

    /// Records that a person filed receipt `receiptID` of `merchant` under `category` (a later decision replaces it).
    public func record(merchant: String, receiptID: Int64, category: ExpenseCategory) {
        guard let key = Self.merchantKey(merchant) else { return }
        decisions[key] = (receiptID, category)
    }

    public func learnedCategory(merchant: String, receiptID: Int64) async throws -> ExpenseCategory? {
        guard let key = Self.merchantKey(merchant), let decision = decisions[key], decision.receiptID != receiptID
        else { return nil }
        return decision.category
    }
}
