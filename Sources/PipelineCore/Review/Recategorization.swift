import Foundation

/// New categories for one stored expense.
public struct CategoryChange: Sendable, Equatable {
    public var receiptID: Int64
    public var category: ExpenseCategory
    /// One per item, in position order.
    public var itemCategories: [ItemCategory]

    public init(receiptID: Int64, category: ExpenseCategory, itemCategories: [ItemCategory]) {
        self.receiptID = receiptID
        self.category = category
        self.itemCategories = itemCategories
    }
}

/// Runs category rules over stored expenses: to test a rule before saving it, and for `pipeline recategorize`.
public struct Recategorization: Sendable {
    public let categorizer: Categorizer

    public init(rules: [CategoryRule]) {
        categorizer = Categorizer(rules: rules)
    }

    /// The expenses whose categories these rules would change.
    public func changes(for samples: [CategorizationSample]) -> [CategoryChange] {
        samples.compactMap { sample in
            let result = categorize(sample)
            let change = CategoryChange(
                receiptID: sample.receiptID, category: result.expense, itemCategories: result.items)
            let unchanged = change.category == sample.category && change.itemCategories == sample.itemCategories
            return unchanged ? nil : change
        }
    }

    /// The receipts a single rule matches, the way categorization matches it (merchant, any text, or an item).
    public func matches(of rule: CategoryRule, in samples: [CategorizationSample]) -> [CategorizationSample] {
        let single = Categorizer(rules: [rule])
        return samples.filter { sample in
            switch rule.target {
            case .merchant:
                single.contains(single.normalizedWords(sample.merchant ?? ""), rule.pattern)
            case .keyword:
                single.contains(single.normalizedWords(sample.ocrText), rule.pattern)
            case .item:
                sample.itemNames.contains { single.contains(single.normalizedWords($0), rule.pattern) }
            }
        }
    }

    private func categorize(_ sample: CategorizationSample) -> Categorization {
        let merchant = sample.merchant.map { ExtractedField(value: $0, confidence: 1, sourceLines: []) }
        let items = sample.itemNames.map {
            DraftLineItem(name: $0, quantity: nil, unitPrice: nil, totalPrice: 0, confidence: 1, sourceLines: [])
        }
        return categorizer.categorize(ExpenseDraft(merchant: merchant, items: items), receiptText: sample.ocrText)
    }
}

extension CategoryRule {
    /// The rule with its pattern trimmed and checked.
    /// - Throws: `ReviewError.invalidValue` when the pattern is empty or longer than 100 characters.
    public func validated() throws(ReviewError) -> CategoryRule {
        let pattern = pattern.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !pattern.isEmpty, pattern.count <= 100 else {
            throw ReviewError(.invalidValue, "a rule's pattern must be 1 to 100 characters (got \"\(self.pattern)\")")
        }
        return CategoryRule(assignment, pattern: pattern, priority: priority)
    }
}

/// What a rule would do to stored expenses, before it is saved.
public struct RuleTest: Sendable, Equatable {
    /// Expenses looked at (the newest, up to `CategorizationStore.ruleTestSampleLimit`).
    public var scanned: Int
    /// Expenses the rule matches.
    public var matched: [CategorizationSample]
    /// Expenses whose categories would change with the rule added to the current ones.
    public var changes: [CategoryChange]

    public init(scanned: Int, matched: [CategorizationSample], changes: [CategoryChange]) {
        self.scanned = scanned
        self.matched = matched
        self.changes = changes
    }
}

extension CategorizationStore {
    /// How many of the newest expenses a rule test looks at.
    public static var ruleTestSampleLimit: Int { 5000 }

    /// Tests a rule against stored expenses without saving it: which it matches and which it would re-file
    /// (beyond what the current rules would re-file anyway).
    /// - Throws: `ReviewError.invalidValue` for a pattern `validated()` refuses.
    public func testRule(_ rule: CategoryRule) async throws -> RuleTest {
        let rule = try rule.validated()
        let samples = try await categorizationSamples(since: nil, limit: Self.ruleTestSampleLimit)
        let current = try await categoryRules().map(\.rule)
        let others = current.filter { $0.target != rule.target || $0.pattern.lowercased() != rule.pattern.lowercased() }
        let withRule = Recategorization(rules: others + [rule])
        let baseline = Set(Recategorization(rules: current).changes(for: samples).map(\.receiptID))
        return RuleTest(
            scanned: samples.count, matched: withRule.matches(of: rule, in: samples),
            changes: withRule.changes(for: samples).filter { !baseline.contains($0.receiptID) })
    }
}
