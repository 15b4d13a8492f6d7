import Foundation

/// An amount found on a line, with the words it was read from.
struct LineAmount: Sendable, Equatable {
    var value: Decimal
    var hasDecimals: Bool
    var isOCRCorrected: Bool
    var isAmbiguous: Bool
    /// Word indexes (inclusive) in the line.
    var firstWord: Int
    var lastWord: Int
    /// Mean OCR confidence of those words, 0–1.
    var confidence: Double
}

/// One OCR line prepared for the rules: its text forms, its role, and its amounts.
struct ReceiptLine: Sendable {
    let index: Int
    let text: String
    /// Upper-cased letters only (`"Sub-Total :"` → `"SUBTOTAL"`), for keyword matching that survives OCR spacing.
    let letters: String
    /// Upper-cased letter runs (`"GST @6%"` → `["GST"]`), for whole-word matching of short keywords.
    let tokens: Set<String>
    let words: [OCRWord]
    let amounts: [LineAmount]
    let box: BoundingBox
    /// Mean word confidence, 0–1.
    let confidence: Double
    let role: LineRole?

    init(index: Int, line: OCRLine) {
        self.index = index
        self.words = line.words
        self.text = line.text
        self.letters = String(line.text.uppercased().unicodeScalars.filter { CharacterSet.letters.contains($0) })
        self.tokens = Set(Self.letterRuns(line.text))
        self.box = line.box
        self.confidence =
            line.words.isEmpty ? 0 : line.words.map(\.confidence).reduce(0, +) / Double(line.words.count) / 100
        self.amounts = Self.findAmounts(in: line.words)
        self.role = LineRole.classify(letters: letters, tokens: tokens)
    }

    /// The upper-cased runs of letters in `text`, in order (`"GST @6%"` → `["GST"]`).
    static func letterRuns(_ text: String) -> [String] {
        text.uppercased().components(separatedBy: CharacterSet.letters.inverted).filter { !$0.isEmpty }
    }

    /// Decimal amounts (the usual money form) on this line.
    var moneyAmounts: [LineAmount] { amounts.filter(\.hasDecimals) }

    /// The rightmost decimal amount: on receipts the money column is on the right.
    var rightmostMoney: LineAmount? { moneyAmounts.last }

    /// The text of the words before `wordIndex`.
    func text(before wordIndex: Int) -> String {
        words.prefix(wordIndex).map(\.text).joined(separator: " ")
    }

    /// Reads amounts word by word, joining a word with the next when OCR split the decimals (`12.` `50`) or the
    /// currency (`RM` `12.50` is two words; the code word itself is not an amount).
    static func findAmounts(in words: [OCRWord]) -> [LineAmount] {
        var amounts: [LineAmount] = []
        var index = 0
        while index < words.count {
            let word = words[index].text
            if index + 1 < words.count {
                let next = words[index + 1].text
                let splitsDecimals =
                    (word.hasSuffix(".") || word.hasSuffix(",") || next.hasPrefix(".") || next.hasPrefix(","))
                    && word.contains(where: \.isASCIIDigit)
                    && next.first.map { $0.isASCIIDigit || $0 == "." || $0 == "," } == true
                if splitsDecimals, let joined = AmountParser.parse(word + next), joined.hasDecimals,
                    AmountParser.parse(word)?.hasDecimals != true
                {
                    amounts.append(
                        LineAmount(
                            value: joined.value, hasDecimals: true, isOCRCorrected: true,
                            isAmbiguous: joined.isAmbiguous,
                            firstWord: index, lastWord: index + 1,
                            confidence: (words[index].confidence + words[index + 1].confidence) / 200))
                    index += 2
                    continue
                }
            }
            if let parsed = AmountParser.parse(word) {
                amounts.append(
                    LineAmount(
                        value: parsed.value, hasDecimals: parsed.hasDecimals, isOCRCorrected: parsed.isOCRCorrected,
                        isAmbiguous: parsed.isAmbiguous, firstWord: index, lastWord: index,
                        confidence: words[index].confidence / 100))
            }
            index += 1
        }
        return amounts
    }
}

/// What a line says about the amount on it.
enum LineRole: String, Sendable, Equatable {
    case total, subtotal, tax, tip, discount, fee, rounding, tendered, change, itemCount

    /// Keywords per role, matched against letters-only text; the first matching role wins, so the
    /// specific ones (`SUBTOTAL`, `TOTALTAX`, `TOTALQTY`) come before the plain `TOTAL`.
    static let keywords: [(LineRole, [String])] = [
        (
            .itemCount,
            ["TOTALQTY", "TOTALQUANTITY", "TOTALITEM", "NOOFITEM", "ITEMCOUNT", "TOTALNOOF", "QTYTOTAL", "ITEMSSOLD"]
        ),
        (.change, ["CHANGE", "CHANGEDUE", "RESTO", "RUCKGELD", "CAMBIO", "RENDU"]),
        (.rounding, ["ROUNDINGADJ", "ROUNDADJ", "ROUNDING", "ROUNDOFF"]),
        (
            .discount,
            [
                "DISCOUNT", "DISC", "SAVING", "COUPON", "PROMO", "YOUSAVED", "MEMBERDEAL", "SCONTO", "RABATT", "REMISE",
                "DESCUENTO",
            ]
        ),
        (.tip, ["TIP", "GRATUITY"]),
        (
            .fee,
            [
                "SERVICECHARGE", "SERVICECHG", "SERVICECH", "SERVICESCH", "SVCCHG", "SVCCHARGE", "DELIVERYFEE",
                "SURCHARGE", "BAGFEE",
            ]
        ),
        (.tax, ["TOTALGST", "TOTALTAX", "TOTALVAT", "TOTALSST", "GSTPAYABLE", "TAXAMOUNT", "GSTAMOUNT"]),
        (
            .subtotal,
            [
                "SUBTOTAL", "BTOTAL", "SUBTTL", "ZWISCHENSUMME", "TAXABLE", "SUBT0TAL", "SUBTOTA", "TOTALEXCL",
                "AMOUNTEXCL", "NETTOTALEXCL", "TOTALBEFORE",
            ]
        ),
        (.tendered, ["TOTALPAID", "AMOUNTPAID", "AMTPAID", "TOTALTENDERED", "AMOUNTTENDERED", "CASHTENDERED"]),
        (
            .total,
            [
                "GRANDTOTAL", "TOTALINCL", "ROUNDEDTOTAL", "ROUNDED", "AFTERADJ", "TOTALAFTER", "TOTALROUNDED",
                "AFTERROUNDING", "NETTTOTAL", "NETTOTAL",
                "TOTALDUE", "AMOUNTDUE", "AMTDUE", "BALANCEDUE", "TOTALAMOUNT", "TOTALPAYABLE", "AMOUNTPAYABLE",
                "TOTALSALES",
                "TOTALRM", "TOTALE", "SUMME", "SOMME", "BAL", "GESAMT", "TOTAAL", "MONTANT", "IMPORTE",
            ]
        ),
        (
            .tax,
            [
                "SALESTAX", "TAX", "TAXES", "IMPUESTO", "GST", "VAT", "SST", "HST", "PST", "QST", "TPS", "TVQ", "MWST",
                "IVA", "TVA", "BTW", "CUOTA",
            ]
        ),
        (.total, ["TOTAL", "AMOUNT", "AMT", "BALANCE", "DUE"]),
        (
            .tendered,
            [
                "CASH", "TENDER", "PAID", "RECEIVED", "VISA", "MASTER", "CARD", "AMEX", "DEBIT", "CREDIT", "PAYMENT",
                "EFTPOS", "PAYWAVE", "CONTANTE", "BAR", "EFECTIVO", "ESPECES",
            ]
        ),
    ]

    /// The role of a line from its letters-only text; keywords of four letters or fewer must be whole words.
    static func classify(letters: String, tokens: Set<String>) -> LineRole? {
        let namesTotal = letters.contains("TOTAL")
        // "Total Sales (Excluding GST)" is the subtotal; "Total (Inclusive of GST)" the total, whatever else is named.
        if namesTotal, !letters.contains("SUBTOTAL"), letters.contains("EXCL") { return .subtotal }
        let namesAmount = namesTotal || letters.contains("AMOUNT") || letters.contains("OUNT")
        // "Total (incl. GST)" names the total.
        if namesAmount, letters.contains("INCL") { return .total }
        for (role, words) in keywords where words.contains(where: { matches($0, letters: letters, tokens: tokens) }) {
            return role
        }
        return nil
    }

    static func matches(_ keyword: String, letters: String, tokens: Set<String>) -> Bool {
        keyword.count <= 4 ? tokens.contains(keyword) : letters.contains(keyword)
    }

    /// Whether the keyword on the line names the final amount strongly (`GRAND TOTAL`, `AMOUNT DUE`).
    static func isStrongTotal(letters: String) -> Bool {
        [
            "GRANDTOTAL", "GRANDTOTEL", "ROUNDEDTOTAL", "AFTERADJ", "TOTALAFTER", "INCL", "TOTALROUNDED",
            "AFTERROUNDING", "NETTTOTAL", "NETTOTAL", "TOTALDUE", "AMOUNTDUE", "AMTDUE",
            "BALANCEDUE", "TOTALPAYABLE", "AMOUNTPAYABLE", "TOTALINCL", "INCLUSIVE", "TOTALAMOUNT", "ROUNDED",
        ]
        .contains(where: { letters.contains($0) })
    }
}
