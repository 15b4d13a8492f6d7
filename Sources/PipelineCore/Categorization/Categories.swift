/// Expense categories (docs/behaviour.md, "Stages", categorize), stored by their display name.
public enum ExpenseCategory: String, Sendable, Equatable, Codable, CaseIterable {
    case foodAndDining = "Food & Dining"
    case groceries = "Groceries"
    case transportation = "Transportation"
    case shopping = "Shopping"
    case entertainment = "Entertainment"
    case billsAndUtilities = "Bills & Utilities"
    case healthcare = "Healthcare"
    case travel = "Travel"
    case education = "Education"
    case business = "Business"
    case other = "Other"
}

/// Item categories (docs/behaviour.md, "Stages", categorize).
public enum ItemCategory: String, Sendable, Equatable, Codable, CaseIterable {
    case food = "Food"
    case beverage = "Beverage"
    case electronics = "Electronics"
    case household = "Household"
    case personalCare = "Personal Care"
    case clothing = "Clothing"
    case service = "Service"
    case fuel = "Fuel"
    case other = "Other"
}
