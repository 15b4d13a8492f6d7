import Foundation

/// The categories of one expense and of each of its items, with what decided the expense's.
public struct Categorization: Sendable, Equatable {
    public var expense: ExpenseCategory
    /// The rule that matched, or nil when no rule did.
    public var expenseRule: CategoryRule?
    /// One per draft item, in order.
    public var items: [ItemCategory]
    /// What decided `expense`.
    public var source: CategorySource = .rule
    /// The fitted model's best guess, when it was asked (no rule, person or LLM decided).
    public var prediction: CategoryModel.Prediction?

    public init(
        expense: ExpenseCategory, expenseRule: CategoryRule?, items: [ItemCategory], source: CategorySource = .rule,
        prediction: CategoryModel.Prediction? = nil
    ) {
        self.expense = expense
        self.expenseRule = expenseRule
        self.items = items
        self.source = source
        self.prediction = prediction
    }

    /// The review page's note when the category is `Other` because nothing was sure of a better one; nil otherwise.
    public var uncertaintyNote: Finding? {
        guard source == .unsure else { return nil }
        let guess = prediction.map { " (best guess \($0.category.rawValue), \($0.percent))" } ?? ""
        return Finding(.categoryNotSure, Self.notSureNotePrefix + guess)
    }

    /// How a note about an uncertain category starts (`pipeline stats` and the review page read it).
    public static let notSureNotePrefix = "category not sure"
}

/// What decided an expense's category, in the order they are asked (`expenses.category_source`).
public enum CategorySource: String, Sendable, Equatable, Codable, CaseIterable {
    /// An editable rule (`category_rules`) matched the merchant or the receipt's text.
    case rule
    /// A person accepted or corrected an earlier receipt of the same merchant.
    case history
    /// The vision LLM's category.
    case llm
    /// The trade the merchant's name states in a word (`Apotheke`, `Tankstelle`; `TradeWords`).
    case trade
    /// The trade of the brand the merchant's lines read as (`BrandCategory`).
    case brand
    /// The fitted model, at or above its threshold.
    case model
    /// Most items fell in one item category.
    case items
    /// Nothing was sure: `Other`.
    case unsure
}

/// Decides categories, first that answers: editable rules (merchant rules, then keywords anywhere on the receipt), a
/// person's category for the same merchant, the LLM's category, the trade the merchant's name states
/// (`TradeWords`: `Drogerie Kühn` is a drugstore, though `Kuhn` is a bakery's brand), the trade of the merchant's
/// brand (`BrandCategory`), the fitted model when it is sure enough, the
/// category most items fall in; else `Other`, noted as not sure. Pure: rules, history and model come in as values.
public struct Categorizer: Sendable {
    public var rules: [CategoryRule]
    /// The fitted offline model (`CategoryModel.fitted` unless a test gives another).
    public var model: CategoryModel

    public init(rules: [CategoryRule], model: CategoryModel = .fitted) {
        self.rules = rules.sorted { ($0.priority, $0.pattern.count * -1) < ($1.priority, $1.pattern.count * -1) }
        self.model = model
    }

    /// Categorizes a draft without an LLM; `receiptText` is the whole OCR text, `learned` a person's category for
    /// the same merchant (`CategoryHistory`).
    public func categorize(_ draft: ExpenseDraft, receiptText: String, learned: ExpenseCategory? = nil)
        -> Categorization
    {
        categorize(draft, receiptText: receiptText, learned: learned, llmCategory: nil)
    }

    /// Categorizes a draft, taking the LLM's categories where the rules and history leave them open: the rules are
    /// editable and win, a person's earlier choice comes next, the model's reading fills what they leave open.
    public func categorize(
        _ draft: ExpenseDraft, receiptText: String, suggestedBy merged: MergedDraft, learned: ExpenseCategory? = nil
    ) -> Categorization {
        var categorization = categorize(
            draft, receiptText: receiptText, learned: learned,
            llmCategory: merged.llmCategory.flatMap(ExpenseCategory.init))
        for (index, suggestion) in merged.llmItemCategories.enumerated()
        where index < categorization.items.count && categorization.items[index] == .other {
            categorization.items[index] = suggestion.flatMap(ItemCategory.init) ?? .other
        }
        return categorization
    }

    private func categorize(
        _ draft: ExpenseDraft, receiptText: String, learned: ExpenseCategory?, llmCategory: ExpenseCategory?
    ) -> Categorization {
        let items = draft.items.map { itemCategory(name: $0.name) }
        if let (rule, category) = matchingRule(merchant: draft.merchant?.value ?? "", receiptText: receiptText) {
            return Categorization(expense: category, expenseRule: rule, items: items, source: .rule)
        }
        if let learned { return Categorization(expense: learned, expenseRule: nil, items: items, source: .history) }
        if let llmCategory, llmCategory != .other {
            return Categorization(expense: llmCategory, expenseRule: nil, items: items, source: .llm)
        }
        if let merchant = draft.merchant?.value,
            let category = TradeWords.expenseCategory(
                ofMerchant: merchant, languages: KeywordLexicon.languages(inText: receiptText))
        {
            return Categorization(expense: category, expenseRule: nil, items: items, source: .trade)
        }
        if let brand = draft.brand?.value,
            let category = BrandCategory.expenseCategory(
                ofBrandNamed: brand, goods: goods(items: items, receiptText: receiptText))
        {
            return Categorization(expense: category, expenseRule: nil, items: items, source: .brand)
        }
        let features = CategoryEvidence.features(
            merchant: draft.merchant?.value, pageText: receiptText, itemCategories: items)
        let prediction = model.predict(features)
        if let prediction, prediction.probability >= model.threshold {
            return Categorization(
                expense: prediction.category, expenseRule: nil, items: items, source: .model, prediction: prediction)
        }
        let byItems = Self.expenseCategory(forItems: items)
        return Categorization(
            expense: byItems, expenseRule: nil, items: items, source: byItems == .other ? .unsure : .items,
            prediction: prediction)
    }

    /// The first rule (merchant rules before keyword rules, each by priority) that matches, with the expense
    /// category it gives; nil when none does.
    func matchingRule(merchant: String, receiptText: String) -> (CategoryRule, ExpenseCategory)? {
        let merchant = normalizedWords(merchant)
        let text = normalizedWords(receiptText)
        for (target, haystack) in [(CategoryRule.Target.merchant, merchant), (.keyword, text)] {
            for rule in rules where rule.target == target && contains(haystack, rule.pattern) {
                switch rule.assignment {
                case .merchant(let category), .keyword(let category): return (rule, category)
                case .item: continue
                }
            }
        }
        return nil
    }

    /// The item category of one line item name, `Other` when no item rule matches.
    public func itemCategory(name: String) -> ItemCategory {
        let words = normalizedWords(name)
        for rule in rules {
            if case .item(let category) = rule.assignment, contains(words, rule.pattern) { return category }
        }
        return .other
    }

    /// Whether the receipt sold fuel (an item or any line of its text reads as fuel), only other items, or neither
    /// is known (no items read).
    func goods(items: [ItemCategory], receiptText: String) -> BrandCategory.ReceiptGoods {
        let fuelLine =
            items.contains(.fuel)
            || receiptText.split(separator: "\n").contains { itemCategory(name: String($0)) == .fuel }
        return fuelLine ? .fuel : items.isEmpty ? .unknown : .shopItems
    }

    /// When most items share a category, the expense follows it (all fuel → Transportation, food → Food & Dining).
    public static func expenseCategory(forItems items: [ItemCategory]) -> ExpenseCategory {
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
        " " + TextSimilarity.words(text) + " "
    }

    func contains(_ haystack: String, _ pattern: String) -> Bool {
        let needle = normalizedWords(pattern)
        return needle != "  " && haystack.contains(needle)
    }
}
