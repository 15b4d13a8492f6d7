import Foundation

/// The categories of one expense and of each of its items, with the rule that decided each.
public struct Categorization: Sendable, Equatable {
    public var expense: ExpenseCategory
    /// The rule that matched, or nil for the `Other` fallback.
    public var expenseRule: CategoryRule?
    /// One per draft item, in order.
    public var items: [ItemCategory]
}

/// Applies editable rules: merchant rules first, then keywords anywhere on the receipt, then the category most items
/// fall in; `Other` when nothing matches. Pure: the rules come in as values (from `category_rules`).
public struct Categorizer: Sendable {
    public var rules: [CategoryRule]

    /// Rules whose category is not a known category name are ignored (and reported by `invalidRules`).
    public init(rules: [CategoryRule]) {
        self.rules = rules.sorted { ($0.priority, $0.pattern.count * -1) < ($1.priority, $1.pattern.count * -1) }
    }

    /// Rules naming a category that does not exist for their target, for an operator to fix.
    public var invalidRules: [CategoryRule] {
        rules.filter { rule in
            rule.target == .item
                ? ItemCategory(rawValue: rule.category) == nil : ExpenseCategory(rawValue: rule.category) == nil
        }
    }

    /// Categorizes a draft; `receiptText` is the whole OCR text for keyword rules.
    public func categorize(_ draft: ExpenseDraft, receiptText: String) -> Categorization {
        let items = draft.items.map { itemCategory(name: $0.name) }
        let merchant = normalizedWords(draft.merchant?.value ?? "")
        let text = normalizedWords(receiptText)
        for (target, haystack) in [(CategoryRule.Target.merchant, merchant), (.keyword, text)] {
            for rule in rules where rule.target == target {
                if let category = ExpenseCategory(rawValue: rule.category), contains(haystack, rule.pattern) {
                    return Categorization(expense: category, expenseRule: rule, items: items)
                }
            }
        }
        return Categorization(expense: Self.expenseCategory(forItems: items), expenseRule: nil, items: items)
    }

    /// Categorizes a draft by the rules, then takes the LLM's categories where the rules said `Other`: the rules
    /// are editable and win; the model's reading fills what they leave open.
    public func categorize(_ draft: ExpenseDraft, receiptText: String, suggestedBy merged: MergedDraft)
        -> Categorization
    {
        var categorization = categorize(draft, receiptText: receiptText)
        if categorization.expense == .other, let category = merged.llmCategory.flatMap(ExpenseCategory.init) {
            categorization.expense = category
        }
        for (index, suggestion) in merged.llmItemCategories.enumerated()
        where index < categorization.items.count && categorization.items[index] == .other {
            categorization.items[index] = suggestion.flatMap(ItemCategory.init) ?? .other
        }
        return categorization
    }

    /// The item category of one line item name, `Other` when no item rule matches.
    public func itemCategory(name: String) -> ItemCategory {
        let words = normalizedWords(name)
        for rule in rules where rule.target == .item {
            if let category = ItemCategory(rawValue: rule.category), contains(words, rule.pattern) { return category }
        }
        return .other
    }

    /// When most items share a category, the expense follows it (all fuel → Transportation, food → Food & Dining).
    static func expenseCategory(forItems items: [ItemCategory]) -> ExpenseCategory {
        let known = items.filter { $0 != .other }
        guard known.count * 2 > items.count else { return .other }
        let counts = Dictionary(grouping: known, by: { $0 }).mapValues(\.count)
        guard let top = counts.max(by: { $0.value < $1.value })?.key else { return .other }
        switch top {
        case .food, .beverage: return .foodAndDining
        case .fuel: return .transportation
        case .electronics, .clothing: return .shopping
        case .household, .personalCare: return .groceries
        case .service: return .business
        case .other: return .other
        }
    }

    /// ` word word ` upper-cased, letters and digits only, padded so whole-word matching is a substring search.
    func normalizedWords(_ text: String) -> String {
        let words = text.uppercased().components(separatedBy: CharacterSet.alphanumerics.inverted).filter {
            !$0.isEmpty
        }
        return " " + words.joined(separator: " ") + " "
    }

    func contains(_ haystack: String, _ pattern: String) -> Bool {
        let needle = normalizedWords(pattern)
        return needle != "  " && haystack.contains(needle)
    }
}
