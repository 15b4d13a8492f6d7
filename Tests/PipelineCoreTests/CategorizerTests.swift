import Foundation
import PipelineCore
import Testing

@Suite struct CategorizerTests {
    // Without the fitted model: these tests are about the rules.
    let categorizer = Categorizer(
        rules: [
            CategoryRule(.merchant(.foodAndDining), pattern: "starbucks", priority: 50),
            CategoryRule(.merchant(.groceries), pattern: "99 speed mart", priority: 50),
            CategoryRule(.keyword(.transportation), pattern: "unleaded"),
            CategoryRule(.item(.beverage), pattern: "latte"),
            CategoryRule(.item(.food), pattern: "bagel"),
            CategoryRule(.item(.fuel), pattern: "ron95"),
        ], model: .unfitted)

    func draft(merchant: String, items: [String]) -> ExpenseDraft {
        ExpenseDraft(
            merchant: ExtractedField(value: merchant, confidence: 0.9, sourceLines: [0]),
            items: items.enumerated().map {
                DraftLineItem(
                    name: $0.element, quantity: nil, unitPrice: nil, totalPrice: 1, confidence: 0.9,
                    sourceLines: [$0.offset + 1])
            })
    }

    @Test func merchantRuleWins() {
        let result = categorizer.categorize(
            draft(merchant: "STARBUCKS COFFEE #1234", items: ["Latte"]), receiptText: "")

        #expect(result.expense == .foodAndDining)
        #expect(result.expenseRule?.pattern == "starbucks")
        #expect(result.items == [.beverage])
    }

    @Test func phraseMatchesWholeWordsOnly() {
        #expect(
            categorizer.categorize(draft(merchant: "99 SPEED MART S/B", items: []), receiptText: "").expense
                == .groceries)
        #expect(categorizer.categorize(draft(merchant: "STARBUCKSY", items: []), receiptText: "").expense == .other)
    }

    @Test func keywordAnywhereOnTheReceipt() {
        let result = categorizer.categorize(
            draft(merchant: "KEDAI ABC", items: []), receiptText: "PUMP 3\nUNLEADED 20.00 L")

        #expect(result.expense == .transportation)
    }

    @Test func itemsDecideWhenNoRuleMatches() {
        let result = categorizer.categorize(
            draft(merchant: "KEDAI ABC", items: ["RON95", "RON95", "Water"]), receiptText: "")

        #expect(result.items == [.fuel, .fuel, .other])
        #expect(result.expense == .transportation)
    }

    @Test func otherIsTheFallback() {
        let result = categorizer.categorize(draft(merchant: "UNKNOWN PLACE", items: ["Thing"]), receiptText: "nothing")

        #expect(result.expense == .other)
        #expect(result.expenseRule == nil)
        #expect(result.items == [.other])
        #expect(result.source == .unsure)
        #expect(result.uncertaintyNote?.message == "category not sure")
    }
}

@Suite struct LLMCategorySuggestionTests {
    private func draft(items: [String]) -> ExpenseDraft {
        var draft = ExpenseDraft()
        draft.merchant = ExtractedField(value: "Corner Hardware", confidence: 0.9, sourceLines: [])
        draft.items = items.map {
            DraftLineItem(name: $0, quantity: 1, unitPrice: nil, totalPrice: 1, confidence: 0.9, sourceLines: [])
        }
        return draft
    }

    private func suggestion(_ category: String?, items: [String?]) -> MergedDraft {
        MergedDraft(draft: ExpenseDraft(), llmCategory: category, llmItemCategories: items, findings: [], usedLLM: true)
    }

    @Test("The LLM's categories fill what the rules leave as Other")
    func fillsOther() {
        let categorizer = Categorizer(rules: [], model: .unfitted)
        let result = categorizer.categorize(
            draft(items: ["Widget"]), receiptText: "", suggestedBy: suggestion("Shopping", items: ["Electronics"]))
        #expect(result.expense == .shopping)
        #expect(result.items == [.electronics])
    }

    @Test("A matching rule wins over the LLM; an unknown LLM category is ignored")
    func rulesWin() {
        let rule = CategoryRule(.merchant(.shopping), pattern: "hardware")
        let categorizer = Categorizer(rules: [rule])
        let ruled = categorizer.categorize(
            draft(items: []), receiptText: "", suggestedBy: suggestion("Groceries", items: []))
        #expect(ruled.expense == .shopping)
        let unknown = Categorizer(rules: [], model: .unfitted).categorize(
            draft(items: ["Widget"]), receiptText: "", suggestedBy: suggestion("Snacks", items: ["Snacks"]))
        #expect(unknown.expense == .other && unknown.items == [.other])
    }
}
