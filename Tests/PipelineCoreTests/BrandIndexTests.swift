import BrandData
import Foundation
import FuzzyKeyLookup
import Testing

@testable import PipelineCore

/// The brand index of the name-suggestion-index (docs/brands.md): OCR-tolerant lookup, brands as merchant candidates
/// wherever a line names one, and the brand's trade as a category source.
@Suite struct BrandIndexTests {
    static func lines(_ text: String) -> [ReceiptLine] {
        ReceiptPage(OCRPage(text: text)).lines
    }

    /// A logo read with a letter lost, two swapped, `@` or `0` for `O`, `1` or `l` for `I`, still names its brand;
    /// three letters of a four-letter name are as loose as it gets.
    @Test(arguments: [
        ("LIDL", "Lidl", 1.0), ("LDL", "Lidl", 0.75), ("LDIL", "Lidl", 0.75), ("R@SSMANN", "Rossmann", 1.0),
        ("R0SSMANN", "Rossmann", 1.0), ("ALD1", "Aldi", 1.0), ("Kaufand", "Kaufland", 0.875),
        ("MediaMarkt", "MediaMarkt", 1.0), ("McDonald's", "McDonald's", 1.0),
    ])
    func aLogoReadWithAnOCRSlipStillNamesItsBrand(_ printed: String, _ brand: String, _ similarity: Double) {
        let match = BrandIndex.shared.matches(printed, fuzzy: true).first { $0.brand.name == brand }
        #expect(match?.similarity == similarity, "\(printed)")
    }

    /// Three letters of logo noise one slip from a short alias (`BSS`, Hugo Boss's `BOSS`) name no brand.
    @Test func threeLettersMatchOnlyABrandsOwnName() {
        #expect(!BrandIndex.shared.matches("BSS", fuzzy: true).contains { $0.brand.name == "Hugo Boss" })
    }

    @Test func anExactLookupAllowsNoSlip() {
        #expect(!BrandIndex.shared.matches("LDL", fuzzy: false).contains { $0.brand.name == "Lidl" })
        #expect(BrandIndex.shared.matches("ab", fuzzy: true).isEmpty)
    }

    /// A single Latin word beside another script is a part of the name, not the brand: `SHOP` of `суши shop`, `MAX`
    /// of `Алло MAX` name nothing, while a brand's Latin name beside its own script still does (`Ajisen Ramen`).
    @Test func aLatinWordBesideAnotherScriptNamesNoBrand() {
        #expect(BrandIndex.shared.matches("SHOP", fuzzy: false).isEmpty)
        #expect(!BrandIndex.shared.matches("MAX", fuzzy: false).contains { $0.brand.name == "allo" })
        #expect(
            BrandIndex.shared.matches("AJISEN RAMEN", fuzzy: false).contains { $0.brand.name.hasSuffix("Ajisen Ramen") }
        )
    }

    /// The match keys the table carries (computed by scripts/generate-brand-index, whose port of `matchKey` must
    /// agree with it) are `matchKey` of each name: a row whose key differs would be found by readings other than its
    /// name's.
    @Test func theTablesKeysAreItsNamesMatchKeys() throws {
        var mismatched: [String] = []
        for row in BrandTable.rows.split(separator: "\n") {
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false)
            try #require(fields.count == 6, "a row of name, category, countries, other names, main, keys: \(row)")
            let names = [fields[0]] + fields[3].split(separator: "|")
            let keys = fields[5].split(separator: "|", omittingEmptySubsequences: false).map { Array($0.utf8) }
            if keys != names.map({ BrandIndex.matchKey(String($0)) }) { mismatched.append(String(row)) }
        }
        #expect(
            mismatched.isEmpty,
            """
            \(mismatched.count) rows' keys are not their names' match keys (first: \(mismatched.first ?? "")): rerun \
            scripts/generate-brand-index, its match_key ported from BrandIndex.matchKey
            """)
    }

    @Test(arguments: [("LIDL", "LDL", true), ("LIDL", "LDIL", true), ("LIDL", "LIDL", false), ("LIDL", "IDLL", false)])
    func oneEditApart(_ a: String, _ b: String, _ expected: Bool) {
        #expect(KeyTable.isOneEditApart(Array(a.utf8), Array(b.utf8)) == expected)
    }

    /// A slogan on top and the brand only in the footer's web address: the brand is still a candidate, marked as read
    /// below the top, inside a line, and as a brand of the receipt's country (German words, euros).
    @Test func aBrandInTheFooterIsACandidate() throws {
        let candidates = MerchantExtractor.candidates(
            lines: Self.lines(Self.germanPageAbove(foot: "Besuchen Sie uns auf www.kaufland.de")), headerLines: [],
            countries: ["de"])
        let brand = try #require(candidates.first { $0.features[.brand] != nil })
        #expect(brand.name == "Kaufland")
        #expect(brand.lines == [9])
        #expect(brand.features[.brandBelowTop] == 1)
        #expect(brand.features[.brandInsideLine] == 1)
        #expect(brand.features[.brandInCountry] == 1)
        #expect(brand.features[.inWebsite] == 1)
    }

    /// A top-level domain that a word follows is that word: `Avda. de la Constitución` is a Spanish street, not the
    /// web address `Avda.de` (which read as the brand `Aveda`), and the receipt's own address comes later.
    @Test func aStreetAbbreviatedBeforeAWordIsNoWebAddress() throws {
        let lines = Self.lines("DIA\nAvda. de la Constitución 111\n41001 Sevilla\nTOTAL 12,00\nwww.dia.es")

        let website = try #require(MerchantExtractor.website(in: lines))

        #expect(website.name == "Dia")
        #expect(website.line == 4)
    }

    /// A German receipt with a slogan on top and nothing naming the shop, above `foot`, its last line.
    static func germanPageAbove(foot: String) -> String {
        """
        Lohnt sich immer.
        Hauptstraße 5
        10115 Berlin
        Butter 1,99 A
        Milch 0,99 A
        SUMME EUR 2,98
        Bar 5,00
        Rückgeld 2,02
        Vielen Dank für Ihren Einkauf
        \(foot)
        """
    }

    /// Below the header a brand is offered only when read exactly and not ruled out by the receipt's country: one OCR
    /// slip from the index's names is almost any short word of a receipt's foot (`SALE` read as the brand `Saje`).
    @Test(arguments: [("KAUFLAND", "de", true), ("KAUFLEND", "de", false), ("KAUFLAND", "my", false)])
    func aFootLineOffersOnlyAnExactBrandOfTheReceiptsCountry(foot: String, country: String, offered: Bool) {
        let candidates = MerchantExtractor.candidates(
            lines: Self.lines(Self.germanPageAbove(foot: foot)), headerLines: [], countries: [country])
        #expect(candidates.contains { $0.brand?.name == "Kaufland" } == offered)
    }

    /// Inside a line a brand is read word for word: `POINTS` is one word, not the two of `Point S`, so a promotion
    /// on top names no brand and lends none to its line; the same letters printed as the brand's two words do.
    @Test(arguments: [("*REDEEM VOUCHER BEFORE POINTS EXPIRY!*", false), ("POINT S Garage Müller", true)])
    func aBrandInsideALineIsReadWordForWord(line: String, named: Bool) {
        let candidates = MerchantExtractor.candidates(
            lines: Self.lines("\(line)\nHauptstraße 5\nSUMME 1,99"), headerLines: [], countries: ["de"])
        #expect(candidates.contains { $0.brand?.name == "Point S" } == named)
        #expect((candidates.first?.features[.brandOnLine] != nil) == named)
    }

    /// `LIDL Berlin-Mitte` on top: the brand is a candidate of its own, with the line's features, and the line's
    /// own candidate is marked as holding a brand.
    @Test func aBrandAsAWordOfATopLine() throws {
        let candidates = MerchantExtractor.candidates(
            lines: Self.lines("LIDL Berlin-Mitte\nHauptstraße 5\nSUMME 1,99"), headerLines: [], countries: ["de"])
        let brand = try #require(candidates.first { $0.features[.brand] != nil })
        #expect(brand.name == "Lidl")
        #expect(brand.features[.brandInsideLine] == 1)
        #expect(brand.features[.position] == 0)
        let line = try #require(candidates.first { $0.name == "LIDL Berlin-Mitte" })
        #expect(line.features[.brandOnLine] == 1)
    }

    /// A brand named between the items below the header is a product (`EY20 PLUG CHAMPION`): it offers no
    /// candidate there, while the same words in the foot, after the total, do.
    @Test(arguments: [(between: true, offered: false), (between: false, offered: true)])
    func aBrandBetweenTheItemsIsAProduct(between: Bool, offered: Bool) {
        let product = "KAUFLAND BUTTER"
        let page = """
            Lohnt sich immer.
            Hauptstraße 5
            10115 Berlin
            Tel 030 123456
            Kasse 3
            Bon 1234
            Datum 12.03.2024
            Artikel
            Milch 0,99 A
            \(between ? product : "Brot")
            Butter 1,99 A
            SUMME EUR 2,98
            Vielen Dank
            \(between ? "Bis bald" : product)
            """
        let candidates = MerchantExtractor.candidates(lines: Self.lines(page), headerLines: [], countries: ["de"])
        #expect(candidates.contains { $0.brand?.name == "Kaufland" } == offered)
    }

    /// Everyday words that are brands (`Total`, a fuel brand) on amount or keyword lines offer nothing; a brand of
    /// another country is marked as such.
    @Test func keywordAndAmountLinesOfferNoBrand() {
        let candidates = MerchantExtractor.candidates(
            lines: Self.lines("KEDAI MAJU\nTOTAL 12.00\nCASH 20.00"), headerLines: [], countries: ["my"])
        #expect(!candidates.contains { $0.features[.brand] != nil })
        let foreign = MerchantExtractor.candidates(
            lines: Self.lines("KAUFLAND\nJALAN AMPANG\nTOTAL 12.00"), headerLines: [], countries: ["my"])
        #expect(foreign.first { $0.name == "Kaufland" || $0.name == "KAUFLAND" }?.features[.brandNotInCountry] == 1)
    }

    /// A name several brands share (`DOMINO'S PIZZA`: the own name of an entry for Georgia, an alias of the
    /// worldwide `Domino's`) is read as the one that operates in the receipt's country, whose category it lends.
    @Test func aNameBrandsShareIsTheBrandOfTheReceiptsCountry() throws {
        let candidates = MerchantExtractor.candidates(
            lines: Self.lines("TAX INVOICE\nDOMINO'S PIZZA\nJALAN KEBUDAYAAN 7\nTOTAL 33.00"), headerLines: [],
            countries: ["my"])
        let line = try #require(candidates.first { $0.name == "DOMINO'S PIZZA" })
        #expect(line.brand?.name == "Domino's")
        #expect(line.features[.brandInCountry] == 1)
        #expect(line.features[.brandNotInCountry] == nil)
    }

    /// Read as a word inside a line, a brand's own name comes before another brand's alias even of the receipt's
    /// country: `BOBS` in a steakhouse's name is the own name `Bob's` (fast food, Brazil and Portugal), not `Bob's
    /// Stores` (clothes, US, alias `bob's`), so it lends the line no brand and no category.
    @Test func aWordInsideALineIsABrandsOwnNameBeforeAnAlias() {
        let candidates = MerchantExtractor.candidates(
            lines: Self.lines("BOBS STEAK & CHOP HOUSE ON LAMAR\nAUSTIN, TX 78703\nTOTAL 374.23"), headerLines: [],
            countries: ["us"])
        #expect(!candidates.contains { $0.brand?.name == "Bob's Stores" })
        #expect(candidates.first { $0.name == "BOBS STEAK & CHOP HOUSE ON LAMAR" }?.brand == nil)
    }

    @Test func theWinningNamesBrandIsKeptBesideIt() {
        let draft = ReceiptExtractor.extract(
            OCRPage(
                text: """
                    LIDL
                    Hauptstraße 5
                    10115 Berlin
                    Butter 1,99 A
                    SUMME EUR 1,99
                    """))
        #expect(draft.brand?.value == "Lidl")
    }

    @Test(arguments: [
        ("Lidl", ExpenseCategory.groceries), ("Shell", .transportation), ("MediaMarkt", .shopping),
        ("McDonald's", .foodAndDining), ("Rossmann", .healthcare), ("7-Eleven", .groceries), ("IKEA", .shopping),
        ("Starbucks", .foodAndDining), ("Tesco", .groceries), ("Esso", .transportation), ("Walmart", .shopping),
        ("Costco", .groceries),
    ])
    func aBrandsTradeDecidesItsCategory(_ brand: String, _ category: ExpenseCategory) {
        #expect(BrandCategory.expenseCategory(ofBrandNamed: brand) == category, "\(brand)")
    }

    /// The brand decides the category where no rule or person does; a merchant rule and a person's earlier choice
    /// still win.
    @Test func rulesAndHistoryOverrideTheBrand() {
        var draft = ExpenseDraft(
            merchant: ExtractedField(value: "Elektro Markt Nord", confidence: 0.9, sourceLines: [0]))
        draft.brand = ExtractedField(value: "MediaMarkt", confidence: 0.9, sourceLines: [0])
        let plain = Categorizer(rules: [])
        #expect(plain.categorize(draft, receiptText: "").expense == .shopping)
        #expect(plain.categorize(draft, receiptText: "").source == .brand)
        #expect(plain.categorize(draft, receiptText: "", learned: .business).expense == .business)
        let rule = CategoryRule(.merchant(.business), pattern: "Elektro Markt", priority: 1)
        #expect(Categorizer(rules: [rule]).categorize(draft, receiptText: "").source == .rule)
    }

    /// A brand of several trades is filed by what the receipt sold (docs/categories.md, "A fuel station's shop"):
    /// Intermarché's and Shell's receipts with a fuel line (an item, or only a line of the page) under
    /// Transportation, with only shop goods under the shop's trade, and with neither known under the brand's
    /// likeliest trade.
    @Test(arguments: [
        ("Intermarché", ["PAIN DE MIE", "LAIT DEMI-ECREME"], "", ExpenseCategory.groceries),
        ("Intermarché", [], "GAZOLE 42,10 L 71,15", .transportation),
        ("Intermarché", [], "", .transportation),
        ("Shell", ["MARS BAR", "COLA 0.5L"], "", .groceries),
        ("Shell", ["UNLEADED 95", "COLA 0.5L"], "", .transportation),
    ])
    func aBrandOfSeveralTradesIsFiledByWhatTheReceiptSold(
        _ brand: String, _ items: [String], _ otherLine: String, _ category: ExpenseCategory
    ) {
        let rules = [
            CategoryRule(.item(.fuel), pattern: "gazole"), CategoryRule(.item(.fuel), pattern: "unleaded"),
            CategoryRule(.item(.food), pattern: "pain"), CategoryRule(.item(.food), pattern: "lait"),
            CategoryRule(.item(.food), pattern: "mars"), CategoryRule(.item(.beverage), pattern: "cola"),
        ]
        var draft = ExpenseDraft(
            merchant: ExtractedField(value: brand, confidence: 0.9, sourceLines: [0]),
            items: items.enumerated().map {
                DraftLineItem(
                    name: $0.element, quantity: nil, unitPrice: nil, totalPrice: 1, confidence: 0.9,
                    sourceLines: [$0.offset + 1])
            })
        draft.brand = ExtractedField(value: brand, confidence: 0.9, sourceLines: [0])
        let text = ([brand] + items + [otherLine]).joined(separator: "\n")
        let categorization = Categorizer(rules: rules, model: .unfitted).categorize(draft, receiptText: text)
        #expect(categorization.expense == category, "\(brand): \(items) \(otherLine)")
        #expect(categorization.source == .brand)
    }

    /// The table parses into about twelve thousand brands, every row with a category, and Aldi's several rows of the
    /// index (Nord, Süd) merged into one brand operating in Germany.
    @Test func theTableParses() throws {
        let brands = BrandIndex.shared.brands
        #expect(brands.count > 10_000)
        #expect(brands.allSatisfy { !$0.tags.isEmpty && !$0.tags.contains { $0.category.isEmpty } })
        let aldi = try #require(BrandIndex.shared.brand(named: "Aldi"))
        #expect(aldi.operates(in: ["fr"]) == true)
        #expect(aldi.operates(in: ["my"]) == false)
        #expect(aldi.operates(in: []) == nil)
    }
}
