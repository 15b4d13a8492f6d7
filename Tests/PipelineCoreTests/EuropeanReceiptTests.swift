import Foundation
import Testing

@testable import PipelineCore

/// Receipts from other countries and languages: keyword classes, number shapes, VAT tables, legal-entity lines, and
/// the order of day and month decided from the page's country evidence (docs/extraction-languages.md).
@Suite struct EuropeanReceiptTests {
    static func lines(_ text: String) -> [ReceiptLine] {
        ReceiptPage(OCRPage(text: text)).lines
    }

    @Test(arguments: [
        ("ZU ZAHLEN EURO 24,23", LineRole.total), ("BARGELD 40,00", .tendered), ("RÜCKGELD 15,77", .change),
        ("ZURUCK 15,77", .change), ("TOTAl 8,10", .total), ("Summe MwSt 3,87", .tax), ("Pfand 0,25 A", .deposit),
        ("Leergut -0,75 A", .deposit), ("Net à payer 12,00", .total), ("ESPÈCES 20,00", .tendered),
        ("Rendu monnaie 7,50", .change), ("TOTAL A PAGAR 9,99", .total), ("Entregado 10,00", .tendered),
        ("Cambio 0,01", .change), ("TOTALE EURO 5,40", .total), ("Resto 4,60", .change), ("Sconto -0,50", .discount),
        ("Te betalen 3,30", .total), ("Wisselgeld 1,70", .change), ("PIN 3,30", .tendered),
        ("Troco 0,40", .change), ("MULTIBANCO 7,12", .tendered), ("Desc. cartão -5,32 C", .discount),
        ("SUMA PLN 24,23", .total), ("GOTÓWKA 50,00", .tendered), ("RESZTA 25,77", .change),
        ("Zwischensumme 12,00", .subtotal), ("JUMLAH 12.00", .total), ("TUNAI 20.00", .tendered),
        ("TOTAL SAVED: $192.08", .discount), ("Amt Tendered $7.00", .tendered), ("Total (incl GST) 26.60", .total),
        ("TOTAL INCLUDES 6% GST 1.51", .tax), ("(Total Included GST @ 6% : 0.42)", .tax),
        ("Order Totel $10.04", .total), ("Tatal: 409.50 USD", .total), ("SUB TOTEL 9.38", .subtotal),
    ])
    func keywordClassesGiveRolesInEveryLanguage(_ text: String, _ role: LineRole) {
        #expect(Self.lines(text).first?.role == role, "\(text)")
    }

    /// A longer word that starts with a false friend, another language's keyword, is a word of its own: an item
    /// `SUMMER GOAT MILK` does not end the items as a German `SUMME`, a Malay `RESTORAN` is no Italian `RESTO`
    /// (change); the keyword itself, at a word's end, and the other keywords that start a longer word still count
    /// (`Zwischensumme`, `Cash Tendered`, `Pfandrückgabe`, Indonesian `Kembalian`).
    @Test func aLongerWordThatStartsWithAForeignKeywordIsNoKeyword() {
        #expect(Self.lines("S353 SUMMER GOAT MILK BODY RM3.99 s").first?.role == nil)
        #expect(Self.lines("RESTORAN WAN SHENG").first?.role == nil)
        #expect(Self.lines("SR 100100000170- Imported Veggies 4.50").first?.role == nil)
        #expect(Self.lines("SUMME 12,00").first?.role == .total)
        #expect(Self.lines("Zwischensumme 12,00").first?.role == .subtotal)
        #expect(Self.lines("Cash Tendered 50.00").first?.role == .tendered)
        #expect(Self.lines("Pfandrückgabe -0,75").first?.role == .deposit)
        #expect(Self.lines("Kembalian 5.000").first?.role == .change)
        let draft = ReceiptExtractor.extract(
            OCRPage(text: "99 SPEED MART\nLISTERINE RM8.99\nS353 SUMMER GOAT MILK BODY RM3.99\nTotal Sales RM 12.98"))
        #expect(draft.items.map(\.totalPrice) == [money("8.99"), money("3.99")])
    }

    @Test func aShortForeignWordInsideAnotherIsNoKeyword() {
        // `BAR` pays in German, but not inside `BARCODE`; `kg` is no legal form.
        #expect(Self.lines("BARCODE 4006381333931").first?.role == nil)
        #expect(LegalEntity.brand(in: "0,158 kg x 1,19 EUR/kg") == nil)
    }

    @Test(arguments: [
        ("1,99C", "1.99"), ("5,69 D", "5.69"), ("1.234,56", "1234.56"), ("-1,50", "-1.50"), ("1,50-", "-1.50"),
        ("0,75-B", "-0.75"), ("24,23€", "24.23"), ("€24,23", "24.23"), ("EUR24,23", "24.23"), ("12,50zł", "12.50"),
        ("18,04*", "18.04"),
    ])
    func europeanAmountShapes(_ token: String, _ expected: String) {
        #expect(AmountParser.parse(token)?.value == money(expected), "\(token)")
        #expect(AmountParser.parse(token)?.hasDecimals == true, "\(token)")
    }

    @Test func thousandsSpaceSplitByOCRIsOneAmount() {
        let line = Self.lines("Telewizor 1 234,56 A")[0]
        #expect(line.moneyAmounts.map(\.value) == [money("1234.56")])
    }

    @Test func weighedItemIsThePriceAboveItsDetailLine() {
        let draft = ReceiptExtractor.extract(
            OCRPage(
                text: """
                    MARKT HOFMANN
                    Äpfel 0,19 A
                      0,158 kg x 1,19 EUR/kg
                    Butter 1,99 A
                    SUMME 2,18
                    """))
        #expect(draft.items.map(\.totalPrice) == [money("0.19"), money("1.99")])
    }

    /// A count times a unit price on a line of its own prices the item above it (German supermarkets) or below it
    /// (discounters), in any of the forms shops print, and is no item itself; a weighed line with `×` neither.
    /// A line that restates the total below items (a sum under a word the lexicon does not know, `SUBTOT`,
    /// `UKUPNO`, or a tax row whose words are not read as a table) is no item, nor is anything below it; two equal
    /// items stay.
    @Test(arguments: [
        ("ADULT P/BACK £5.99\nSUBTOT £5.99\nTOTAL £5.99\nCASH £20.00", ["5.99"]),
        ("CRVENI - OBRAZI 100,00\nPLAVI - SORBET 20,00\nUKUPNO kn 120,00", ["100.00", "20.00"]),
        ("CHIPIRON 9.95\nPLATO PAN TOMATE\nAGUA 1.85\nI.U.A.102 11.00 1.10 12.10\nTOTAL 12.10", ["9.95", "1.85"]),
        ("Coffee 3.00\nCoffee 3.00\nTOTAL 6.00", ["3.00", "3.00"]),
    ])
    func aSumLineIsNoItem(_ body: String, _ prices: [String]) {
        let draft = ReceiptExtractor.extract(OCRPage(text: "VOLUME ONE BOOKSHOP\n" + body))
        #expect(draft.items.map(\.totalPrice) == prices.map(money), "\(body)")
    }

    @Test func quantityLinesPriceTheirItemAndAreNoItems() {
        let draft = ReceiptExtractor.extract(
            OCRPage(
                text: """
                    MARKT HOFMANN
                    EUR
                    5 × 3,17
                    Roggenbrot 15,85 B
                    Bio Milch 2,38 B
                      2 Stk x 1,19
                    Tomaten 25,08 A
                      6 UD x 4,18
                    Käse 22,45 B
                      4,49 x 5
                    Trauben 12,20 A
                    2,263 kg × 5.39 EUR/kg
                    Kartoffeln 2,64 A
                    0,49 kg x 5,38 EUR/kg
                    SUMME 82,60
                    """))
        #expect(draft.items.map(\.name) == ["Roggenbrot", "Bio Milch", "Tomaten", "Käse", "Trauben", "Kartoffeln"])
        #expect(draft.items.map(\.quantity) == [5, 2, 6, 5, nil, nil])
        #expect(draft.items.map(\.unitPrice) == [money("3.17"), money("1.19"), money("4.18"), money("4.49"), nil, nil])
    }

    /// A drink's size in litres at the start of its line (`0,5 Weizen`, a German or Norwegian restaurant's bill) is
    /// part of its name, not an amount; a weight, a count or a unit price there is not (`0.20 EA 5 FOR`, `6.99 Dsc`).
    @Test func aDrinksSizeStartsItsNameAndIsNoAmount() {
        let draft = ReceiptExtractor.extract(
            OCRPage(
                text: """
                    GASTHAUS HOFMANN
                    Schnitzel 14,50
                    0,5 Weizen 4,20
                    0.75 Fachinger natur 5.30
                    0.20 EA 5 FOR 0.99
                    6.99 Dsc -1.38
                    Saldo 22,61
                    """))
        #expect(draft.items.map(\.name) == ["Schnitzel", "0,5 Weizen", "0.75 Fachinger natur"])
        #expect(draft.items.map(\.totalPrice) == [money("14.50"), money("4.20"), money("5.30")])
    }

    /// A name line without an amount above a count line keeps the count line as its price line (`COFFEE` / `2 X
    /// 5.00`), as before quantity lines were read.
    @Test func aCountLineUnderANameWithoutAmountIsThatItemsPriceLine() {
        let draft = ReceiptExtractor.extract(OCRPage(text: "CAFE LUNA\nCOFFEE\n2 X 5.00\nTOTAL 5.00"))
        #expect(draft.items.map(\.name) == ["COFFEE"])
    }

    /// An Italian `documento commerciale` prints the VAT rate as a column between the name and the price; a
    /// product's own percentage is kept.
    @Test(arguments: [
        ("Latte intero 22% 1,29", "Latte intero"), ("Pane 4 % 1,50", "Pane"),
        ("Vollmilch 3,5% 1,09 A", "Vollmilch 3,5%"),
    ])
    func aRateColumnIsNoPartOfTheName(_ text: String, _ name: String) {
        let draft = ReceiptExtractor.extract(OCRPage(text: "ALIMENTARI ROSSI\n\(text)\nTOTALE 1,00"))
        #expect(draft.items.first?.name == name)
    }

    /// Discounts printed among the items are summed; deposits and returned deposits are items.
    @Test func discountsUnderItemsAreSummedAndDepositsAreItems() {
        let draft = ReceiptExtractor.extract(
            OCRPage(
                text: """
                    MARKT HOFMANN
                    Joghurt 1,58 A
                    Preisvorteil -0,30 A
                    Wasser 0,49 B
                    Pfand 0,25 A
                    Leergut 0,75- A
                    Rabatt -0,20 A
                    SUMME 1,07
                    """))
        #expect(draft.items.map(\.totalPrice) == [money("1.58"), money("0.49"), money("0.25"), money("-0.75")])
        #expect(draft.discounts?.value == money("0.50"))
        #expect(
            Reconciler(tolerance: money("0.01")).reconcile(draft).findings.contains {
                $0.check == .itemsToTotal && $0.passed
            })
    }

    /// VAT tables of each language: the columns are told apart by their sums, in whatever order they print, and a
    /// table whose rows agree with their rates confirms the total.
    @Test(arguments: [
        // German discounter: tax before net.
        ("MWST-Satz MWST + Netto = Brutto\nA 19% 1,90 10,00 11,90\nB 7% 0,35 5,00 5,35", "17.25", "2.25"),
        // German supermarket: the rate as `A= 19,0%`, the sum row named like a total.
        (
            "Steuer % Netto Steuer Brutto\nA= 19,0% 10,00 1,90 11,90\nB= 7,0% 5,00 0,35 5,35\nGesamtbetrag 15,00 2,25 17,25",
            "17.25", "2.25"
        ),
        ("Taux HT TVA TTC\n5,50% 10,00 0,55 10,55\n20,00% 5,58 1,12 6,70", "17.25", "1.67"),
        ("IVA BASE IMPONIBLE (€) CUOTA (€)\n21,00% 10,00 2,10\n10,00% 4,68 0,47", "17.25", "2.57"),
        ("ALIQUOTA IMPONIBILE IMPOSTA\n22,00% 10,00 2,20\n4,00% 4,85 0,19", "17.24", "2.39"),
        ("BTW% Grondslag BTW\n21,00% 10,00 2,10\n9,00% 4,73 0,43", "17.26", "2.53"),
        ("BTW% ExcI. BTW Incl.\nH21% 10,00 2,10 12,10\nL 9% 4,73 0,43 5,16", "17.26", "2.53"),
    ])
    func vatTablesOfEachLanguageAreRead(_ table: String, _ gross: String, _ tax: String) throws {
        let lines = Self.lines("SHOP\nItem 17,25 A\nTOTAL 17,25\nCARD 17,25\n\(table)")
        let read = try #require(VATTable.read(lines), "\(table)")
        #expect(read.gross == money(gross), "\(table)")
        #expect(read.tax == money(tax), "\(table)")
        #expect(read.isConsistent, "\(table)")
    }

    /// The table's Σ gross confirms the total; a table that does not add up to it holds the receipt.
    /// Totals per tax rate instead of a table (a Malaysian GST invoice): the rates' gross amounts add up to the bill.
    @Test func totalsPerRateAddUpToTheTotal() throws {
        let text = """
            GARDENIA BAKERIES (KL) SDN BHD
            WHOLEMEAL 2.78 5 0 3 8.34
            O.C JUMBO 2.97 4 0 0 4 11.88
            Total 0% supplies: 20.22
            CR-VANILLA 0.72 10 0 0 10 7.20
            Total 6% supplies (excl. GST): 7.20
            GST: 0.43
            Total 6% supplies (Inc. GST): 7.63
            Total 0% supplies: 20.22
            Total Payable: 27.85
            """
        let table = try #require(VATTable.read(Self.lines(text)))
        #expect(table.gross == money("27.85"))
        #expect(table.tax == money("0.43"))
        #expect(table.isConsistent)
        let result = Reconciler(tolerance: money("0.01")).reconcile(ReceiptExtractor.extract(OCRPage(text: text)))
        #expect(result.draft.total?.value == money("27.85"))
        #expect(result.findings.contains { $0.check == .vatTableToTotal && $0.passed })
        // `Total 6% supplies (excl. GST)` is one rate's subtotal, not the bill's: nothing fails against it.
        #expect(result.draft.subtotal == nil)
        #expect(result.outcome == .balanced, "\(result.findings)")

        // One rate's total is the bill's own total line; a taxed rate whose tax disagrees with it confirms nothing.
        #expect(VATTable.read(Self.lines("Total 6% supplies (Inc. GST): 7.63\nTotal Payable: 7.63")) == nil)
        let disagreeing = text.replacingOccurrences(of: "(Inc. GST): 7.63", with: "(Inc. GST): 7.93")
        #expect(VATTable.read(Self.lines(disagreeing)) == nil)
    }

    /// An adjustment note credits a taxed rate: its net, tax and gross are negative, and the rates still add up to the
    /// bill; a `TOTAL` misread in one letter (`Totol`) names a rate's total too.
    @Test func creditedRateTotalsAddUpToTheTotal() throws {
        let text = """
            GARDENIA BAKERIES (KL) SDN BHD
            O.C. WHITE 2.13 4 1 0 3 6.39
            O.C JUMBO 2.97 4 0 4 11.88
            Totol 0% supplies: 18.27
            CR-CHOCLT 0.72 0 3 -2.16
            Total 6% supplies (excl. GST): -2.16
            GST: -0.13
            Total 6% supplies (Inc. GST): -2.29
            Totol 0% supplies: 18.27
            Total Payable: 15.98
            """
        let table = try #require(VATTable.read(Self.lines(text)))
        #expect(table.gross == money("15.98"))
        #expect(table.tax == money("-0.13"))
        let result = Reconciler(tolerance: money("0.01")).reconcile(ReceiptExtractor.extract(OCRPage(text: text)))
        #expect(result.draft.total?.value == money("15.98"))
        #expect(result.findings.contains { $0.check == .vatTableToTotal && $0.passed })

        // Each rate's total is one rate's, not the bill's, where the bill's total is printed apart: no candidate.
        let candidates = TotalsExtractor.totalCandidates(
            lines: Self.lines(text), totals: ReceiptTotals(), itemsSum: nil)
        #expect(!candidates.contains { $0.value == money("18.27") })
        #expect(candidates.contains { $0.value == money("15.98") })
        let unprinted = text.replacingOccurrences(of: "Total Payable: 15.98", with: "")
        let kept = TotalsExtractor.totalCandidates(lines: Self.lines(unprinted), totals: ReceiptTotals(), itemsSum: nil)
        #expect(kept.contains { $0.value == money("18.27") }, "without the bill's own line the rates stay candidates")
    }

    @Test func aConsistentVATTableConfirmsTheTotal() {
        let text = """
            MARKT HOFMANN
            Butter 1,99 A
            SUMME 17,25
            MwSt% Netto Steuer Brutto
            A 19% 10,00 1,90 11,90
            B 7% 5,00 0,35 5,35
            """
        let reconciler = Reconciler(tolerance: money("0.01"))
        let result = reconciler.reconcile(ReceiptExtractor.extract(OCRPage(text: text)))
        #expect(result.outcome == .balanced)
        #expect(result.findings.contains { $0.check == .vatTableToTotal && $0.passed })
        let misread = reconciler.reconcile(
            ReceiptExtractor.extract(OCRPage(text: text.replacingOccurrences(of: "SUMME 17,25", with: "SUMME 71,25"))))
        #expect(misread.findings.contains { $0.check == .vatTableToTotal && !$0.passed })
    }

    @Test func vatTableGrossAddsUpToTheTotal() throws {
        let lines = Self.lines(
            """
            Markt Hofmann
            Butter 1,99 A
            Brot 2,49 B
            Wasser 0,99 A
            SUMME 5,47
            BAR 10,00
            Rückgeld 4,53
            MwSt%  Netto  Steuer  Brutto
            A 19%  2,51  0,47  2,98
            B 7%  2,33  0,16  2,49
            Summe  4,84  0,63  5,47
            """)
        let table = try #require(VATTable.read(lines))
        #expect(table.gross == money("5.47"))
        #expect(table.tax == money("0.63"))
        #expect(VATTable.summaryStart(in: lines) == 7)
        let candidates = TotalsExtractor.totalCandidates(lines: lines, totals: ReceiptTotals(), itemsSum: nil)
        #expect(candidates.first { $0.value == money("5.47") }?.features[.vatTableGross] == 1)
        #expect(candidates.first { $0.value == money("10.00") }?.features[.vatTableGross] == nil)
    }

    @Test(arguments: [
        ("Aldi GmbH & Co. KG", "Aldi"), ("Supermercado García S.L.", "Supermercado García"),
        ("Delikatesy Nowak Sp. z o.o.", "Delikatesy Nowak"), ("Bakkerij Jansen B.V.", "Bakkerij Jansen"),
        ("Farmácia Silva Unipessoal Lda.", "Farmácia Silva"), ("Salumeria Rossi S.r.l.", "Salumeria Rossi"),
        ("Boulangerie Dubois SARL", "Boulangerie Dubois"), ("Drogerie Keller e.K.", "Drogerie Keller"),
        // Malaysian receipts and their labels name the business with its suffix.
        ("POPULAR BOOK CO. (M) SDN BHD (113210-W)", "POPULAR BOOK CO. (M) SDN BHD"),
        // OCR reads the O of a form as a zero.
        ("Bouwmarkt Visser V.0.F.", "Bouwmarkt Visser"), ("Apteka Lis Sp. z 0.0.", "Apteka Lis"),
        // A European company as a KG's partner.
        ("ALDI SE & Co. KG", "ALDI"),
    ])
    func legalEntityLineGivesItsBrand(_ text: String, _ brand: String) {
        #expect(LegalEntity.brand(in: text) == brand)
    }

    /// `SE` alone is no legal form: a Spanish line saying what the shop does not take back names no company.
    @Test func seAloneIsNoLegalForm() {
        #expect(LegalEntity.brand(in: "CAMBIOS NO SE ADMITEN") == nil)
    }

    /// A form right after a number is a quantity (`50 KG`), and a money line is never a company's name.
    @Test func weightsAndMoneyLinesAreNoLegalLines() {
        #expect(LegalEntity.brand(in: "PORTLAND CEMENT (50 KG)") == nil)
        #expect(LegalEntity.brand(in: "BERAS ASAS 10KG") == nil)
        let page = OCRPage(text: "KEDAI MAJU\nTOTAL SUPPLIES S.A. 12.00\nTOTAL 12.00")
        let candidates = ReceiptExtractor.extractWithCandidates(page, reader: .ppocr).candidates.merchant
        #expect(!candidates.contains { $0.features[.legalEntityBrand] == 1 })
    }

    @Test func brandFromTheLegalLineIsACandidateWhenTheHeaderIsASlogan() {
        let candidates = MerchantExtractor.candidates(
            lines: Self.lines(
                """
                FRISCHE EINKAUFEN
                Hauptstraße 5
                10115 Berlin
                Butter 1,99 A
                SUMME 1,99
                Vielen Dank für Ihren Einkauf
                Frischmarkt Vogel GmbH & Co. KG
                """), headerLines: [])
        let legal = candidates.first { $0.features[.legalEntityBrand] == 1 }
        #expect(legal?.name == "Frischmarkt Vogel")
        #expect(legal?.lines == [6])
    }

    /// The merchant candidate read from `header` alone, as the top line above an address and a total.
    static func topLineCandidate(_ header: String) -> MerchantExtractor.Candidate? {
        MerchantExtractor.candidates(lines: lines("\(header)\nHauptstraße 5\nSUMME 1,99"), headerLines: [])
            .first { $0.lines == [0] }
    }

    /// A phrase on top reads as a slogan in capitals too, where function words join its words (`FunctionWords`), and
    /// so does a sentence ending on a word in lower case and a full stop; a name that only starts with an article, the
    /// letters of an abbreviation, two words, or a name with a full stop after its last capital are none.
    @Test(arguments: [
        ("LA FRAÎCHEUR AU QUOTIDIEN", true), ("QUALIDADE A BOM PREÇO", true), ("DRESS FOR LESS", true),
        ("Sapori di casa", true), ("You decide what’s inside.", true), ("THE CAPITAL GRILLE", false),
        ("MR. D.I.Y. (M) SDN BHD", false), ("C W KHOO HARDWARE", false), ("whole foods", false),
        ("More saving.", true), ("Fresh every day.", true), ("Foot Locker.", false), ("Acme Trading Co.", false),
    ])
    func aPhraseOnTopReadsAsASloganInAnyCase(_ header: String, _ isSlogan: Bool) {
        let top = Self.topLineCandidate(header)
        #expect(top != nil, "\(header)")
        #expect((top?.features[.slogan] == 1) == isSlogan, "\(header)")
    }

    /// How the order is served in two words, and a printed date, are receipt furniture on a top line; a chain's name
    /// that ends in `To Go`, a name with a number and a bare year are not.
    @Test(arguments: [
        ("DINE IN", true), ("Dine-In", true), ("Carry Out", true), ("EAT IN", true), ("TAKE AWAY", true),
        ("JEU 18 DECEMBRE 2014", true), ("Host: Ryan 01/30/2015", true), ("REWE To Go", false),
        ("Japan 49", false), ("Steak 'n Shake", false), ("Pizzeria Roma 1926", false),
    ])
    func howTheOrderIsServedOrADateIsReceiptFurniture(_ header: String, _ isFurniture: Bool) {
        let top = Self.topLineCandidate(header)
        #expect(top != nil, "\(header)")
        #expect((top?.features[.furnitureWords] ?? 0 > 0) == isFurniture, "\(header)")
    }

    @Test(arguments: [
        ("Datum: 02.03.2020 14:22", "2020-03-02"), ("02.03.20 14:22", "2020-03-02"), ("Le 2 mars 2020", "2020-03-02"),
        ("2. März 2020", "2020-03-02"), ("Fecha 02-03-2020", "2020-03-02"), ("2 juillet 2021", "2021-07-02"),
        ("2 juin 2021", "2021-06-02"), ("15 października 2019", "2019-10-15"), ("3 maggio 2022", "2022-05-03"),
    ])
    func europeanDatesReadDayFirst(_ printed: String, _ expected: String) throws {
        let draft = ReceiptExtractor.extract(
            OCRPage(
                text: """
                    Markt Hofmann
                    USt-IdNr.: DE123456789
                    \(printed)
                    SUMME 5,47
                    """))
        #expect(draft.date.map { "\($0.value)" } == expected, "\(printed)")
        #expect(draft.date?.value.isAmbiguous == false, "\(printed)")
    }

    /// `02/08/2015` reads both ways: a US address or phone number (`305 861-2222` too) reads it month first (also
    /// beside Spanish tip and card words), another date that reads one way decides, and with no evidence it is read
    /// day first and stays flagged. A receipt number of dash-joined groups (`#001-001-0934-0001`) holds no US phone
    /// number.
    @Test(arguments: [
        ("BLUE MOON DINER\n120 Main St\nAustin, TX 78701\n02/08/2015 7:42 PM\nTOTAL 18.40", "2015-02-08", false),
        (
            "LA CASITA\n120 Main St\nAustin, TX 78701\n02/08/2015 7:42 PM\nTARJETA\nPROPINA 3.00\nTOTAL 18.40",
            "2015-02-08", false
        ),
        ("ASIA BAY\n1007 Kane Concourse\n305 861-2222\n07:56 PM Date 12/09/12\nTOTAL 65.66", "2012-12-09", false),
        ("BLUE MOON DINER\nDate 02/08/2015 7:42 PM\nTOTAL 18.40\nValid until 25/08/2015", "2015-08-02", false),
        ("BLUE MOON DINER\nDate 02/08/2015 7:42 PM\nTOTAL 18.40", "2015-08-02", true),
        ("KEDAI MAKAN\nTOTAL 28.70\nRM CASH 100.00C\n#001-001-0934-0001 05/01/2018 13:30", "2018-01-05", true),
    ])
    func theOrderOfDayAndMonthFollowsThePage(_ text: String, _ expected: String, _ isAmbiguous: Bool) {
        let draft = ReceiptExtractor.extract(OCRPage(text: text))
        #expect(draft.date.map { "\($0.value)" } == expected, "\(draft.notes)")
        #expect(draft.date?.value.isAmbiguous == isAmbiguous)
    }

    @Test func countryEvidenceImpliesTheCurrencyWhenNoneIsPrinted() {
        let german = ReceiptExtractor.extract(OCRPage(text: "Markt Hofmann\nZU ZAHLEN 5,47\nRückgeld 4,53"))
        #expect(german.currency?.value == "EUR")
        let polish = ReceiptExtractor.extract(OCRPage(text: "Sklep Nowak\nDO ZAPŁATY 5,47\nRESZTA 4,53"))
        #expect(polish.currency?.value == "PLN")
    }
}
