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

    /// A preset's search term (`Baumarkt`, `Frutería`, `Delikatesy`, `Kaashandel`) states the trade only as the name's
    /// first word on a page worded in the term's language: `paris` is French for betting, and `DISNEYLAND PARIS` no
    /// casino, nor is a Spanish `Frutería` one on a page with no Spanish word.
    @Test(arguments: [
        ("Baumarkt Weber", "SUMME EUR 12,40\nRückgeld 7,60", ExpenseCategory?.some(.shopping)),
        ("Frutería Torres", "TOTAL A PAGAR 8,20\nEFECTIVO 10,00", .groceries),
        ("Delikatesy Nowak", "RAZEM PLN 18,40\nGOTÓWKA 20,00", .groceries),
        ("Kaashandel de Boer", "TOTAAL 9,80\nCONTANT 10,00", .groceries),
        ("Frutería Torres", "TOTAL 8.20\nCASH 10.00", nil),
        ("Weber Baumarkt", "SUMME EUR 12,40\nRückgeld 7,60", nil),
        ("BIENVENUE A DISNEYLAND PARIS", "TOTAL TTC 23,40\nRENDU MONNAIE 6,60", nil),
    ])
    func aSearchTermStatesTheTradeFirstOnAPageInItsLanguage(
        _ name: String, _ body: String, _ category: ExpenseCategory?
    ) {
        let languages = KeywordLexicon.languages(inText: name + "\n" + body)
        #expect(TradeWords.expenseCategory(ofMerchant: name, languages: languages) == category, "\(name), \(languages)")
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

    /// The generated table parses: hundreds of names and thousands of terms in the lexicon's languages, each row a
    /// word, an OSM tag, a language and whether the word is the preset's name or a search term.
    @Test func theTableParses() {
        let rows = TradeWordTable.rows.split(separator: "\n").map {
            $0.split(separator: "\t", omittingEmptySubsequences: false)
        }
        #expect(rows.allSatisfy { $0.count == 4 && ["name", "term"].contains($0[3]) })
        #expect(rows.count { $0.last == "name" } > 500)
        #expect(rows.count { $0.last == "term" } > 5000)
        #expect(!rows.contains { $0.last == "term" && $0[2] == "en" })
    }
}
