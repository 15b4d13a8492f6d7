/// One editable categorization rule, as stored in the `category_rules` table.
public struct CategoryRule: Sendable, Equatable {
    /// What the pattern is matched against (`match_on` in SQL).
    public enum Target: String, Sendable, Equatable, Codable, CaseIterable {
        /// The merchant name; the category is an expense category.
        case merchant
        /// Any text on the receipt; the category is an expense category.
        case keyword
        /// A line item's name; the category is an item category.
        case item
    }

    /// What the pattern is matched against with the category a match gives, whose kind the target decides.
    public enum Assignment: Sendable, Equatable {
        /// The merchant name matches: the expense's category.
        case merchant(ExpenseCategory)
        /// Any text on the receipt matches: the expense's category.
        case keyword(ExpenseCategory)
        /// A line item's name matches: the item's category.
        case item(ItemCategory)

        /// The category named `name` (in any letter case) among those `target` allows.
        /// - Throws: `ReviewError.invalidValue` naming the unknown category and listing the known ones.
        public init(target: Target, categoryNamed name: String) throws(ReviewError) {
            func named<Category: RawRepresentable & CaseIterable>(_: Category.Type, _ kind: String)
                throws(ReviewError) -> Category where Category.RawValue == String
            {
                guard let category = Category.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() })
                else {
                    let known = Category.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ReviewError(
                        .invalidValue, "unknown \(kind) category \"\(name)\"; known \(kind) categories: \(known)")
                }
                return category
            }
            switch target {
            case .merchant: self = .merchant(try named(ExpenseCategory.self, "expense"))
            case .keyword: self = .keyword(try named(ExpenseCategory.self, "expense"))
            case .item: self = .item(try named(ItemCategory.self, "item"))
            }
        }

        public var target: Target {
            switch self {
            case .merchant: .merchant
            case .keyword: .keyword
            case .item: .item
            }
        }

        /// The category's display name, as `category_rules.category` stores it.
        public var categoryName: String {
            switch self {
            case .merchant(let category), .keyword(let category): category.rawValue
            case .item(let category): category.rawValue
            }
        }
    }

    public var assignment: Assignment
    /// A case-insensitive word or phrase (`starbucks`, `petrol`); it must match whole words.
    public var pattern: String
    /// Lower runs first.
    public var priority: Int

    public init(_ assignment: Assignment, pattern: String, priority: Int = 100) {
        self.assignment = assignment
        self.pattern = pattern
        self.priority = priority
    }

    /// A rule whose category is given by name (a form, a command line, a stored row).
    /// - Throws: `ReviewError.invalidValue` when `target` allows no category of that name.
    public init(target: Target, pattern: String, categoryNamed name: String, priority: Int = 100) throws(ReviewError) {
        self.init(try Assignment(target: target, categoryNamed: name), pattern: pattern, priority: priority)
    }

    public var target: Target { assignment.target }
    /// The category's display name.
    public var categoryName: String { assignment.categoryName }
}
