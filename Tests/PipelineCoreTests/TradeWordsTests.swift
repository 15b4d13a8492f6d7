import BrandData
import Foundation
import Testing

@testable import PipelineCore

/// The trade a merchant's name states decides its category (docs/categories.md, "Trade words").
@Suite struct TradeWordsTests {
    @Test(arguments: [
        ("Apotheke am Markt", ExpenseCategory.healthcare), ("TANKSTELLE BRANDT", .transportation),
        ("Boulangerie Dubois", .foodAndDining), ("Supermercado García", .groceries), ("Ferramenta Rossi", .shopping),
        ("BÄCKEREI KÜHN", .foodAndDining), ("Pharmacie Rousseau", .healthcare), ("Apteka Wójcik", .healthcare),
        ("Supermarkt de Boer", .groceries), ("Librairie Moreau", .shopping), ("Apotek Sari", .healthcare),
    ])
    func aNameStatingItsTradeGivesTheTradesCategory(_ name: String, _ category: ExpenseCategory) {
        #expect(TradeWords.expenseCategory(ofMerchant: name) == category, "\(name)")
    }

    /// Loose English words (`STORE`, `SHOP`, `KITCHEN`) are no preset's name, places (`Park`, `Marina`) are left
    /// out, a name stating trades of two categories states none, and so does a word naming a trade the guideline
    /// leaves to the items besides one it settles (`Warung`: a general shop or a kiosk).
    @Test(arguments: [
        "LION CITY STORE", "LOREM SHOP", "TOKYO KITCHEN SDN BHD", "Green Park", "The Shoppes at Marina Bay Sands",
        "Hofmann & Söhne", "Apotheke Bäckerei Weber", "Warung Bahagia",
    ])
    func aNameWithoutOneTradeGivesNone(_ name: String) {
        #expect(TradeWords.expenseCategory(ofMerchant: name) == nil, "\(name)")
    }

    /// The name's own trade comes before a brand read inside it (`Kuhn` is a Swiss bakery's brand, `Drogerie Kühn`
    /// a drugstore), after a person's rule or earlier choice, and before the fitted model.
    @Test func theNamesTradeComesAfterAPersonAndBeforeABrand() {
        var draft = ExpenseDraft(merchant: ExtractedField(value: "Drogerie Kühn", confidence: 0.9, sourceLines: [0]))
        draft.brand = ExtractedField(value: "Kuhn", confidence: 0.9, sourceLines: [0])
        let plain = Categorizer(rules: [])

        let categorization = plain.categorize(draft, receiptText: "Drogerie Kühn\nZahnpasta 2,36")

        #expect(categorization.expense == .healthcare)
        #expect(categorization.source == .trade)
        #expect(plain.categorize(draft, receiptText: "", learned: .shopping).source == .history)
        let rule = CategoryRule(.merchant(.shopping), pattern: "Drogerie Kühn", priority: 1)
        #expect(Categorizer(rules: [rule]).categorize(draft, receiptText: "").source == .rule)
    }

    /// The generated table parses: hundreds of names in the lexicon's languages, each row a name, an OSM tag and a
    /// language.
    @Test func theTableParses() {
        let rows = TradeWordTable.rows.split(separator: "\n")
        #expect(rows.count > 500)
        #expect(rows.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 3 })
    }
}
