import Foundation
import PipelineCore
import Testing

/// The merchant rules on the top lines of real WildReceipt and SROIE receipts, as Tesseract read them (first pass
/// and, on small photos, the header pass; PP-OCR where the rule says so): each case keeps only the lines it needs,
/// with the words' confidences (rounded) and each line's top and height (the rules read neither word boxes nor
/// horizontal positions).
@Suite struct MerchantReadingTests {
    /// A receipt's top lines, the rule they exercise, and the merchant read from them.
    struct Case: Sendable, CustomStringConvertible {
        var receipt: String
        var rule: String
        var size: (width: Int, height: Int)
        var lines: [OCRLine]
        var headerLines: [OCRLine] = []
        var merchant: String
        /// Other readings of the same name that count as right: which of them ranks first is the fit's call.
        var alsoRight: Set<String> = []
        /// The page lines the merchant cites, when the case pins them.
        var sourceLines: [Int]? = nil

        var description: String { "\(receipt): \(rule)" }
    }

    /// One OCR line at `top` with `height`: its words as `(text, confidence)`, each in the line's box.
    static func line(top: Int, height: Int, _ words: [(String, Double)]) -> OCRLine {
        let box = BoundingBox(left: 0, top: top, width: 0, height: height)
        return OCRLine(words: words.map { OCRWord(text: $0.0, confidence: $0.1, box: box) }, box: box)
    }

    /// wr_72_5_ba533709's name and address lines, shared by two cases.
    static let laSolanaTop = [
        line(
            top: 271, height: 90,
            [
                (":", 26), ("LA", 66), ("SOLANA", 83), ("RIBEDED", 47), ("8.L.", 11), ("a", 0),
            ]),
        line(
            top: 335, height: 70,
            [
                (":", 14), ("ANTONIO", 96), ("OTERO.41", 68), ("-", 56), ("27000", 93), ("RIBADEO", 92), ("ee", 52),
            ]),
        line(top: 388, height: 38, [("p27280494", 70)]),
    ]

    static let cases: [Case] = [
        Case(
            receipt: "wr_6_1_3247", rule: "the header reading wins when it scores higher (a logo the page misses)",
            size: (645, 1200),
            lines: [
                line(
                    top: 233, height: 20,
                    [
                        ("800", 96), ("CANAL", 97), ("ST,", 90), ("NEW", 96), ("ORLEANS,", 95), ("LA", 97),
                    ]),
                line(top: 264, height: 21, [("PHARMACY:", 96), ("528-7099", 96), ("STORE:", 95)]),
                line(top: 326, height: 20, [("REG#O7", 80), ("TRANS4111", 15), ("CSHR#0966108", 38), ("STRE763", 20)]),
            ],
            headerLines: [
                line(top: 120, height: 73, [("CVS/pharmacy", 97)]),
                line(
                    top: 234, height: 19,
                    [
                        ("800", 96), ("CANAL", 96), ("ST,", 95), ("NEW", 96), ("ORLEANS,", 96), ("LA", 96),
                    ]),
                line(top: 264, height: 21, [("PHARMACY:", 96), ("528-7099", 95), ("STORE", 96)]),
            ],
            // No page line lies at the logo's height: the name cites none rather than the address below it.
            merchant: "CVS/pharmacy", sourceLines: []),
        Case(
            receipt: "wr_21_12_d00f4314",
            rule: "logo noise above a name does not push it down",
            size: (899, 1200),
            lines: [
                line(
                    top: 5, height: 55,
                    [
                        ("WT", 4), ("Tt)", 29), ("|)", 54), ("@prP", 0), ("oat", 37), ("|", 41), ("st", 38),
                    ]),
                line(top: 28, height: 63, [("N", 0), ("veins}", 4), ("r", 0), ("|", 65)]),
                line(
                    top: 15, height: 122,
                    [
                        ("De", 9), ("Po", 10), ("La", 43), ("ah", 35), ("ab", 31), ("BA", 29), ("bts", 14),
                    ]),
                line(
                    top: 72, height: 107,
                    [
                        ("~wh]", 0), ("ce", 25), ("fe", 16), ("[eile", 35), ("Fey", 5), ("eay,", 0), ("slay", 28),
                        ("ri", 1), ("i", 37), ("pe", 23),
                    ]),
                line(top: 172, height: 106, [("Buvette", 89), ("des", 96), ("M.", 70), ("—", 0)]),
                line(top: 240, height: 39, [("arionnettes", 89)]),
                line(
                    top: 385, height: 40,
                    [
                        ("*", 92), ("LA", 87), ("BUVETTE", 89), ("Dip", 44), ("MAR", 74), ("LONNETTES", 60), ("©", 56),
                    ]),
            ],
            headerLines: [
                line(
                    top: 1, height: 184,
                    [
                        ("sen", 12), ("ga", 39), ("fisted", 10), ("Sits", 34), ("LL", 13), ("dens", 10),
                    ]),
                line(top: 166, height: 44, [("i=", 42), ("aa", 40)]),
                line(top: 182, height: 130, [("Buvette", 82), ("des", 57), ("Marionettes", 51)]),
                line(
                    top: 283, height: 137,
                    [
                        ("im", 6), ("4", 53), ("RUVETTE.", 11), ("DES", 92), ("MARIONNETIES", 89), ("*", 88), ("@", 42),
                    ]),
            ],
            merchant: "Buvette des Marionettes", alsoRight: ["Buvette des M.", "RUVETTE. DES MARIONNETIES"]),
        Case(
            receipt: "wr_38_16_4111", rule: "a `City, ST` line is a place, not a name",
            size: (929, 1200),
            lines: [
                line(top: 60, height: 36, [("Pizza", 95), ("Hut", 95), ("#744007", 96)]),
                line(top: 109, height: 36, [("870", 93), ("W", 93), ("Rusk", 96), ("St", 96)]),
                line(top: 160, height: 43, [("Rockwall,", 97), ("Tx", 95), ("75087", 96)]),
            ],
            merchant: "Pizza Hut #744007", sourceLines: [0]),
        Case(
            receipt: "wr_83_7_f6b39750",
            rule: "a leading 5-digit postcode is not dropped like a street number (lines 0 and 3)",
            size: (796, 1600),
            lines: [
                line(top: 164, height: 73, [("IL10’S", 43), ("|", 80)]),
                line(top: 310, height: 29, [("85630", 92), ("Grasbrunn", 92)]),
            ],
            merchant: "ILIO’S"),
        Case(
            receipt: "wr_48_18_db4bd9e2", rule: "`1` in a word that starts with a letter is a misread `I`",
            size: (1200, 1600),
            lines: [
                line(top: 58, height: 75, [("E1", 24), ("Farol", 92), ("4", 45)]),
                line(top: 115, height: 77, [("808", 79), ("Canyon", 97), ("Rd.", 83), ("3", 44)]),
                line(top: 188, height: 45, [("Santa", 97), ("Fe,", 97), ("NM", 94), ("8/501", 72)]),
            ],
            merchant: "EI Farol", sourceLines: [0]),
        Case(
            receipt: "sroie_121", rule: "a word read with digits as letters counts as unsure (`O1F` is logo noise)",
            size: (803, 1600),
            lines: [
                line(top: 0, height: 25, [("Ks", 26), ("’,", 0), ("=", 33)]),
                line(top: 22, height: 41, [("3'B", 16), ("ol", 87), ("O1F", 75), ("‘", 89)]),
                line(top: 187, height: 31, [("SYARIKAT", 92), ("PERNIAGAAN", 91), ("GIN", 96), ("KEE", 97)]),
            ],
            merchant: "SYARIKAT PERNIAGAAN GIN KEE", sourceLines: [2]),
        Case(
            receipt: "wr_72_5_ba533709", rule: "`8.L.` after a name is the Spanish legal suffix `S.L.`",
            size: (1200, 1600),
            lines: laSolanaTop,
            merchant: "LA SOLANA RIBEDED S.L.", sourceLines: [0]),
        Case(
            receipt: "wr_72_5_ba533709", rule: "receipt words in other languages (TIQUET, MESA) are not a name",
            size: (1200, 1600),
            lines: laSolanaTop + [
                line(top: 456, height: 80, [("TIQUET", 75), (":1002/", 39), ("13840", 40), ("MESA:", 95), ("Q", 36)])
            ],
            merchant: "LA SOLANA RIBEDED S.L.", sourceLines: [0]),
        Case(
            receipt: "wr_33_15_344eec21", rule: "a continuation line must match the name's letter case",
            size: (900, 1200),
            lines: [
                line(top: 152, height: 36, [("#Waka1", 57), ("(10)", 96)]),
                line(top: 206, height: 24, [("Charcoal", 96), ("Grill", 97), ("Diner", 96)]),
                line(top: 243, height: 18, [("ZAKKUSHI", 92)]),
            ],
            merchant: "Charcoal Grill Diner", sourceLines: [1]),
        Case(
            receipt: "wr_28_14_56679940", rule: "a name the receipt's web address spells again (`www itsugar .com`)",
            size: (900, 1200),
            lines: [
                line(top: 181, height: 79, [("©", 11), ("ait", 33), ("Pan", 0), ("F", 58)]),
                line(
                    top: 224, height: 65, [("atl", 49), ("latitic", 0), ("Ocean", 97), ("(609)", 96), ("385-0101", 75)]),
                line(
                    top: 905, height: 62,
                    [
                        ("|", 14), ("SIGN", 82), ("UP", 96), ("A", 72), ("www", 36), ("itsugar", 55), (".com/emai]", 6),
                    ]),
            ],
            headerLines: [
                line(top: 184, height: 46, [("+", 72), ("TT", 48), ("SUGAR", 48), ("+", 35)]),
                line(
                    top: 254, height: 56,
                    [("Atlantic", 84), ("|", 91), ("city", 88), ("New", 96), ("Jersey", 96), ("8401", 31)]),
            ],
            merchant: "TT SUGAR"),
        Case(
            receipt: "wr_70_5_3476", rule: "the page reading wins when it has every word of the header's and more",
            size: (1200, 1200),
            lines: [
                line(top: 0, height: 67, [("ee", 27), ("TERS", 39)]),
                line(
                    top: 102, height: 51,
                    [
                        (":", 8), ("CN", 26), ("The", 96), ("Shoppes", 93), ("at", 96), ("Marina", 84), ("Bay", 95),
                        ("Sands", 96),
                    ]),
                line(
                    top: 116, height: 81,
                    [
                        ("2", 19), ("i", 24), ("2", 94), ("Bayfront", 96), ("Avenue", 96), ("01-81", 81), ("2%", 38),
                    ]),
            ],
            headerLines: [
                line(top: 0, height: 68, [("TERR", 41)]),
                line(top: 103, height: 43, [("The", 96), ("at", 97), ("Marina", 90), ("Bay", 97), ("Sands.", 90)]),
                line(top: 139, height: 41, [("2", 86), ("Bayfront", 96), ("Avenue", 96), ("01-81", 68)]),
            ],
            merchant: "CN The Shoppes at Marina Bay Sands", sourceLines: [1]),
        Case(
            receipt: "wr_47_18_46d65aed", rule: "lower-case words (`pnt`, `eatin`) make a line read as a sentence",
            size: (900, 1200),
            lines: [
                line(top: 53, height: 18, [("RSH", 96), ("SI", 38)]),
                line(
                    top: 93, height: 53,
                    [
                        ("IKI", 87), ("OLEH", 66), ("Ran", 45), ("pants", 25), ("»", 44), ("Luspur", 0), ("i", 38),
                    ]),
                line(
                    top: 127, height: 44,
                    [
                        ("pnt", 38), ("Company", 94), ("Hel", 58), ("eatin", 0), ("SDN", 77), ("BHD", 80), ("a", 36),
                    ]),
            ],
            headerLines: [
                line(top: 53, height: 23, [("RSH", 95), ("NU", 95), ("SENTRAL", 82)]),
                line(top: 75, height: 26, [("9,03,", 61), ("Nu", 95), ("Sentral,", 95), ("50970,", 80)]),
                line(top: 90, height: 32, [("L2.", 0), ("03-2272", 88), ("2102", 94)]),
                line(
                    top: 122, height: 36,
                    [
                        ("TKI", 44), ("OLEK", 0), ("RSH", 87), ("(MALAYSIA)", 85), ("SoH", 51), ("gun", 51),
                    ]),
            ],
            merchant: "RSH NU SENTRAL", sourceLines: [0]),
        Case(
            receipt: "wr_89_9_567f2ef6", rule: "a trade word with no name above it heads the name below (`Store #208`)",
            size: (1200, 1200),
            lines: [
                line(top: 34, height: 54, [("Store", 96), ("#208", 43)]),
                line(top: 89, height: 103, [("Pana", 63), ("Express", 77)]),
                line(top: 156, height: 30, [("ton,", 86), ("KA", 37)]),
                line(top: 193, height: 113, [("10/28/2014", 93), ("eee", 17), ("a", 37)]),
            ],
            headerLines: [
                line(top: 193, height: 42, [("(9179267-7977", 43)]),
                line(top: 236, height: 70, [("10/28/2014", 93), ("3:21:56", 75), ("PA", 95)]),
            ],
            merchant: "Pana Express", sourceLines: [1]),
        Case(
            receipt: "wr_47_18_55f5417f",
            rule: "how the order is served (`Carry Out`) is receipt wording, not the name (PP-OCR)",
            size: (976, 1632),
            lines: [
                line(top: 379, height: 57, [("*158590*", 100)]),
                line(top: 471, height: 110, [("Steak", 92), ("'n", 98), ("Shake", 100), ("No:11", 93)]),
                line(top: 638, height: 102, [("Carry", 100), ("Out", 99)]),
                line(
                    top: 720, height: 69,
                    [("Name:", 99), ("AMANDA", 99), ("W", 100), ("11/6/2011", 95), ("1:38:27", 100), ("AM", 100)]),
                line(top: 777, height: 65, [("SEAT:1", 96)]),
                line(top: 833, height: 67, [("1", 100), ("West", 100), ("BBQ", 100), ("Dbl/FF", 97), ("4.79", 100)]),
                line(top: 894, height: 66, [("SubTotal", 100), ("4.79", 100)]),
            ],
            merchant: "Steak 'n Shake No:11", sourceLines: [1]),
        Case(
            receipt: "wr_12_10_845be0dd",
            rule: "a cuisine and a kind of eatery (`KOREAN RESTAURANT`) end the name above",
            size: (348, 348),
            lines: [
                line(top: 0, height: 20, [("CHO", 100), ("EUN", 100)]),
                line(top: 15, height: 24, [("KOREAN", 100), ("RESTAURANT", 100)]),
                line(top: 29, height: 31, [("2621", 100), ("ORANGETHORPE", 100), ("AVE,FULLERTON.", 100)]),
                line(top: 50, height: 26, [("(714)", 100), ("879-3574", 100)]),
                line(top: 70, height: 23, [("THANK", 99), ("YOU!!", 100)]),
            ],
            merchant: "CHO EUN KOREAN RESTAURANT", alsoRight: ["CHO EUN"]),
        Case(
            receipt: "sroie_512",
            rule:
                "a legal name wrapped over three lines: a parenthesis closed below, a legal form beginning a line (PP-OCR)",
            size: (591, 1395),
            lines: [
                line(top: 74, height: 38, [("AIK_HUAT", 95), ("HARDWAKE", 100)]),
                line(top: 99, height: 40, [("ENTERPRISE", 100), ("(SETIA", 100)]),
                line(top: 127, height: 34, [("ALAM)", 100), ("SDN", 100), ("BHD", 100)]),
                line(top: 152, height: 35, [("822737-X", 100)]),
                line(
                    top: 176, height: 37,
                    [("NO.", 100), ("17-G,", 100), ("JALAN", 100), ("SETIA", 100), ("INDAH", 100)]),
                line(top: 202, height: 37, [("(X)", 98), ("U13/X,", 98), ("SETIA", 100), ("ALAM,", 98)]),
                line(
                    top: 226, height: 40, [("SEKSYEN", 100), ("U13,", 98), ("40170", 95), ("SHAH", 100), ("ALAM", 100)]),
                line(
                    top: 252, height: 39,
                    [
                        ("TEL:", 100), ("012", 100), ("-", 100), ("6651783", 100), ("FAX:", 99), ("03-", 100),
                        ("33623608", 100),
                    ]),
                line(top: 280, height: 34, [("GST", 100), ("NO:000394528768", 97)]),
                line(top: 325, height: 59, [("SIMPLIFIED", 100), ("TAX", 100), ("INVOICE", 100)]),
                line(top: 361, height: 78, [("Auit", 86), ("Coanter.", 96)]),
                line(top: 423, height: 35, [("CASH", 100)]),
                line(
                    top: 473, height: 38,
                    [("RECEIPT", 100), ("#:", 91), ("CSP0406159", 99), ("DATE:", 100), ("15/09/2017", 100)]),
            ],
            merchant: "AIK_HUAT HARDWAKE ENTERPRISE (SETIA ALAM) SDN BHD", sourceLines: [0, 1, 2]),
        Case(
            receipt: "sroie_243",
            rule:
                "a promotion on top names no brand (`POINTS` is not `Point S`); `Sdn.Bhd` glued is the legal suffix (PP-OCR)",
            size: (684, 1674),
            lines: [
                line(
                    top: 12, height: 59,
                    [("Thank", 100), ("You.", 99), ("Please", 100), ("come", 100), ("again.", 100)]),
                line(top: 56, height: 56, [("Goods", 100), ("Sold,Are", 95), ("Not", 100), ("Returnable.", 100)]),
                line(
                    top: 98, height: 60,
                    [("For", 99), ("feedback", 100), ("or", 100), ("complaint,", 100), ("please", 100), ("call:", 100)]),
                line(top: 146, height: 46, [("011-3194", 100), ("0284", 100)]),
                line(
                    top: 181, height: 56,
                    [("*REDEEM", 96), ("VOUCHER", 100), ("BEFORE", 100), ("POINTS", 100), ("EXPIRY!*", 98)]),
                line(
                    top: 352, height: 47, [("Segi", 100), ("Cash", 100), ("&", 100), ("Carry", 100), ("Sdn.Bhd", 99)]),
                line(top: 393, height: 48, [("(317041-W)", 100)]),
                line(top: 434, height: 46, [("PT17920,", 99), ("SEKSYEN", 100), ("U9,", 100)]),
                line(top: 477, height: 42, [("40150", 100), ("SHAH", 100), ("ALAM,", 99)]),
                line(top: 518, height: 40, [("SELANGOR", 100), ("DIARUL", 93), ("EHSAN.", 100)]),
                line(
                    top: 556, height: 48, [("GST", 100), ("Reg.", 98), ("No.", 100), (":", 99), ("001951645696", 100)]),
                line(top: 638, height: 42, [("Invoice", 100), ("No", 100), (":", 98), ("47735", 100)]),
                line(top: 677, height: 43, [("Iate", 87), (":04", 99), ("Jan", 100), ("2017", 100), ("01:15pm", 95)]),
                line(top: 717, height: 44, [("Counter", 100), ("：03", 96)]),
                line(top: 800, height: 39, [("UNICA", 100), ("PAIL", 100), ("6GL", 100), ("600", 100)]),
                line(top: 837, height: 42, [("1", 100), ("×", 91), ("17.41", 100), ("17.41", 100), ("S", 100)]),
            ],
            merchant: "Segi Cash & Carry Sdn.Bhd", sourceLines: [5]),
        Case(
            receipt: "wr_88_9_27efcc84", rule: "the `0'` of an Irish name is the letter `O` (PP-OCR)", size: (337, 450),
            lines: [
                line(top: 83, height: 22, [("*2*8*88****8*88888", 57)]),
                line(top: 99, height: 19, [("LiTly", 92), ("0'Brlens", 90)]),
                line(top: 111, height: 20, [("18", 100), ("murray", 99), ("street", 100)]),
                line(top: 123, height: 20, [("New", 85), ("Yark,", 95), ("NY", 100), ("10007", 100)]),
                line(top: 136, height: 18, [("Tel.646-930-2008", 99)]),
                line(top: 149, height: 18, [("Order", 99), ("3772", 100)]),
                line(
                    top: 158, height: 22,
                    [("03/15/16", 100), ("12:59", 100), ("PM", 98), ("Check", 100), ("199713", 100)]),
                line(
                    top: 171, height: 21,
                    [("Table", 100), ("Cust.", 98), ("1", 100), ("Server", 96), ("8", 98), ("Lorraine", 94)]),
                line(top: 220, height: 28, [("Tab", 100), ("#12", 100), ("8.00", 99)]),
            ],
            merchant: "LiTly O'Brlens", sourceLines: [1]),
    ]

    @Test(arguments: cases)
    func readsTheMerchant(_ testCase: Case) {
        let page = OCRPage(
            lines: testCase.lines, headerLines: testCase.headerLines, width: testCase.size.width,
            height: testCase.size.height, meanConfidence: 80)

        let merchant = ReceiptExtractor.extract(page).merchant

        #expect(merchant?.value == testCase.merchant || testCase.alsoRight.contains(merchant?.value ?? ""))
        if let sourceLines = testCase.sourceLines {
            #expect(merchant?.sourceLines == sourceLines)
        }
    }
}
