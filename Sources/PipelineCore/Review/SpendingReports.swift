import Foundation

/// Spending reports over accepted expenses, item price histories and the learning counters.
public protocol SpendingReportStore: Sendable {
    /// Spending of accepted expenses (pending and rejected ones left out), grouped; `month` is `YYYY-MM`.
    func spending(by grouping: SpendingGrouping, month: String?) async throws -> [SpendingRow]

    /// Every purchase of items whose name contains `item` (case-insensitive) on an accepted expense, oldest first.
    func priceHistory(item: String, limit: Int) async throws -> [PricePoint]

    /// How often learned aliases and rules were used.
    func learningCounters() async throws -> LearningCounters
}

/// How `pipeline report` and the dashboard group spending.
public enum SpendingGrouping: String, Sendable, Codable, CaseIterable {
    case month, category, merchant
}

/// One line of a spending report: a group's expenses in one currency.
public struct SpendingRow: Sendable, Equatable, Codable {
    /// The month (`YYYY-MM`), category or merchant.
    public var key: String
    public var currency: String?
    public var expenses: Int
    public var total: Decimal

    public init(key: String, currency: String?, expenses: Int, total: Decimal) {
        self.key = key
        self.currency = currency
        self.expenses = expenses
        self.total = total
    }
}

/// One purchase of an item, for its price history.
public struct PricePoint: Sendable, Equatable, Codable {
    public var receiptID: Int64
    public var date: String?
    public var merchant: String?
    public var itemName: String
    public var quantity: Decimal?
    public var unitPrice: Decimal?
    public var totalPrice: Decimal?
    public var currency: String?

    public init(
        receiptID: Int64, date: String?, merchant: String?, itemName: String, quantity: Decimal?, unitPrice: Decimal?,
        totalPrice: Decimal?, currency: String?
    ) {
        self.receiptID = receiptID
        self.date = date
        self.merchant = merchant
        self.itemName = itemName
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.totalPrice = totalPrice
        self.currency = currency
    }
}

/// How often what people taught was used again (`pipeline stats`).
public struct LearningCounters: Sendable, Equatable, Codable {
    /// Merchant names remembered from corrections.
    public var merchantAliases: Int
    /// Later receipts whose merchant came from such an alias.
    public var merchantAliasUses: Int
    /// Category rules made from a corrected receipt.
    public var learnedRules: Int
    /// Expenses committed after such a rule was made whose merchant it matches.
    public var learnedRuleMatches: Int
    /// Corrections kept in the audit trail (decisions included).
    public var corrections: Int

    public init(
        merchantAliases: Int, merchantAliasUses: Int, learnedRules: Int, learnedRuleMatches: Int, corrections: Int
    ) {
        self.merchantAliases = merchantAliases
        self.merchantAliasUses = merchantAliasUses
        self.learnedRules = learnedRules
        self.learnedRuleMatches = learnedRuleMatches
        self.corrections = corrections
    }
}
