/// One editable categorization rule, as stored in the `category_rules` table.
public struct CategoryRule: Sendable, Equatable, Codable {
    /// What the pattern is matched against (`match_on` in SQL).
    public enum Target: String, Sendable, Equatable, Codable {
        /// The merchant name; the category is an expense category.
        case merchant
        /// Any text on the receipt; the category is an expense category.
        case keyword
        /// A line item's name; the category is an item category.
        case item
    }

    public var target: Target
    /// A case-insensitive word or phrase (`starbucks`, `petrol`); it must match whole words.
    public var pattern: String
    /// An `ExpenseCategory` (merchant, keyword) or `ItemCategory` (item) display name.
    public var category: String
    /// Lower runs first.
    public var priority: Int

    public init(target: Target, pattern: String, category: String, priority: Int = 100) {
        self.target = target
        self.pattern = pattern
        self.category = category
        self.priority = priority
    }
}
