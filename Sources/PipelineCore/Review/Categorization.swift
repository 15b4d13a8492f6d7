import Foundation

/// Category rules and what re-categorization reads and writes of stored expenses.
public protocol CategorizationStore: Sendable {
    /// Every category rule, lowest priority number first.
    func categoryRules() async throws -> [StoredCategoryRule]

    /// Adds a rule (`id` nil) or replaces rule `id`; a rule with the same target and pattern is replaced.
    /// - Returns: the rule's id.
    /// - Throws: `ReviewError` for an unknown category (listing the known ones) or an unknown rule id.
    @discardableResult
    func saveRule(_ rule: CategoryRule, id: Int64?, learnedFrom receiptID: Int64?, by person: String) async throws
        -> Int64

    /// Deletes a rule. - Returns: false when no rule has that id.
    @discardableResult
    func removeRule(_ id: Int64) async throws -> Bool

    /// What categorization reads of stored expenses (newest first, rejected ones left out).
    func categorizationSamples(since: Date?, limit: Int) async throws -> [CategorizationSample]

    /// Stores new categories for expenses (corrected categories stay as the person set them).
    /// - Returns: how many expenses changed.
    @discardableResult
    func applyCategories(_ changes: [CategoryChange]) async throws -> Int
}

/// A category rule as stored, with its id and where it came from.
public struct StoredCategoryRule: Sendable, Equatable {
    public var id: Int64
    public var rule: CategoryRule
    /// The receipt whose correction taught this rule, if one did.
    public var learnedFrom: Int64?

    public init(id: Int64, rule: CategoryRule, learnedFrom: Int64?) {
        self.id = id
        self.rule = rule
        self.learnedFrom = learnedFrom
    }
}

/// What categorization reads of one stored expense, to test rules against or re-categorize it.
public struct CategorizationSample: Sendable, Equatable {
    public var receiptID: Int64
    public var merchant: String?
    public var ocrText: String
    public var itemNames: [String]
    public var category: ExpenseCategory
    public var itemCategories: [ItemCategory]

    public init(
        receiptID: Int64, merchant: String?, ocrText: String, itemNames: [String], category: ExpenseCategory,
        itemCategories: [ItemCategory]
    ) {
        self.receiptID = receiptID
        self.merchant = merchant
        self.ocrText = ocrText
        self.itemNames = itemNames
        self.category = category
        self.itemCategories = itemCategories
    }
}
