import Foundation

/// An amount found on a line, with the words it was read from.
struct LineAmount: Sendable, Equatable {
    var value: Decimal
    /// Printed as money: with decimals (`12.50`), or in thousands groups on a page that prints all its money in
    /// whole units (`29,000`, `ReceiptPage.printsWholeUnits`); a bare integer (a quantity, a table) is not.
    var isMoney: Bool
    /// The mark between the thousands groups of a whole number (`ParsedAmount.wholeGroupMark`).
    var wholeGroupMark: Character? = nil
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
    /// Folded letters only (`"Sub-Total :"` → `"SUBTOTAL"`, `"Rückgeld"` → `"RUCKGELD"`), for keyword matching that
    /// survives OCR spacing and accents (`KeywordLexicon.folded`), and a `TOTAL` misread in one letter read as one
    /// (`KeywordLexicon.readingTotal`).
    let letters: String
    /// Upper-cased letter runs (`"GST @6%"` → `["GST"]`), for whole-word matching of short keywords.
    let tokens: Set<String>
    let words: [OCRWord]
    private(set) var amounts: [LineAmount]
    let box: BoundingBox
    /// Mean word confidence, 0–1.
    let confidence: Double
    let role: LineRole?

    init(index: Int, line: OCRLine) {
        self.index = index
        self.words = line.words
        self.text = line.text
        (self.letters, self.tokens) = Self.keywordForms(line.text)
        self.box = line.box
        self.confidence =
            line.words.isEmpty ? 0 : line.words.map(\.confidence).reduce(0, +) / Double(line.words.count) / 100
        self.amounts = Self.findAmounts(in: line.words)
        let classified = LineRole.classify(letters: letters, tokens: tokens)
        self.role = classified == .itemCount ? LineRole.roleAfterCount(in: line.text) ?? classified : classified
        if let role, role != .itemCount, !amounts.contains(where: \.isMoney),
            let amount = Self.decimalPointReadApart(line.words)
        {
            amounts.removeAll { $0.lastWord >= amount.firstWord }
            amounts.append(amount)
        }
    }

    /// The amount ending a keyword line whose decimal point OCR read as a space or a dash (`GRAND TOTAL 10 00`,
    /// `TOTAL 7-00`, `CASH 30-00`): a whole number of one to four digits and two digits after it (after a dash only
    /// `00`). Only where the line holds no other money: a line named for an amount prints one.
    static func decimalPointReadApart(_ words: [OCRWord]) -> LineAmount? {
        guard let last = words.last else { return nil }
        func amount(_ text: String, from first: Int) -> LineAmount? {
            AmountParser.parse(text).map {
                LineAmount(
                    value: $0.value, isMoney: true, isOCRCorrected: true, isAmbiguous: false, firstWord: first,
                    lastWord: words.count - 1,
                    confidence: words[first...].map(\.confidence).reduce(0, +) / Double(words.count - first) / 100)
            }
        }
        // A dash only before whole units: `28-05` on a line is a date as often as money.
        if let match = last.text.wholeMatch(of: /(\d{1,4})-00/) {
            return amount("\(match.1).00", from: words.count - 1)
        }
        guard words.count >= 2, last.text.wholeMatch(of: /\d{2}/) != nil,
            let whole = words[words.count - 2].text.wholeMatch(of: /\$?(\d{1,4})/)
        else { return nil }
        return amount("\(whole.1).\(last.text)", from: words.count - 2)
    }

    /// The line with its whole numbers in thousands groups read as money, for a page that prints its money in whole
    /// units (`ReceiptPage.printsWholeUnits`).
    func withGroupedWholesAsMoney() -> ReceiptLine {
        var line = self
        for index in line.amounts.indices where line.amounts[index].wholeGroupMark != nil {
            line.amounts[index].isMoney = true
        }
        return line
    }

    /// The line with the whole number that ends it read as money, for a page that prints its money as bare whole
    /// numbers (`ReceiptPage.printsBareWholeUnits`).
    func withEndingWholeAsMoney() -> ReceiptLine {
        var line = self
        if let last = line.amounts.indices.last, line.endingAmount != nil { line.amounts[last].isMoney = true }
        return line
    }

    /// The amount that ends the line (its last word), nil when a word follows the last amount or there is none.
    var endingAmount: LineAmount? {
        amounts.last.flatMap { $0.lastWord == words.count - 1 ? $0 : nil }
    }

    /// `text`'s folded letters and letter runs as keywords are matched against them (`letters`, `tokens`), a `TOTAL`
    /// misread in one letter read as one.
    static func keywordForms(_ text: String) -> (letters: String, tokens: Set<String>) {
        let runs = letterRuns(text).map(KeywordLexicon.readingTotal)
        return (runs.joined(), Set(runs))
    }

    /// The folded runs of letters in `text`, in order (`"GST @6%"` → `["GST"]`, `"Rückgeld"` → `["RUCKGELD"]`).
    static func letterRuns(_ text: String) -> [String] {
        KeywordLexicon.folded(text).components(separatedBy: CharacterSet.letters.inverted).filter { !$0.isEmpty }
    }

    /// Decimal amounts (the usual money form) on this line.
    var moneyAmounts: [LineAmount] { amounts.filter(\.isMoney) }

    /// The rightmost decimal amount: on receipts the money column is on the right.
    var rightmostMoney: LineAmount? { moneyAmounts.last }

    /// The text of the words before `wordIndex`.
    func text(before wordIndex: Int) -> String {
        words.prefix(wordIndex).map(\.text).joined(separator: " ")
    }

    /// Reads amounts word by word, joining a word with the next when OCR split the decimals (`12.` `50`) or the
    /// thousands (`1` `234,56`), or the currency (`RM` `12.50` is two words; the code word itself is not an amount).
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
                // "1 234,56": a space between thousands, which OCR reads as two words.
                let groupsThousands =
                    word.count <= 3 && word.allSatisfy(\.isASCIIDigit)
                    && next.range(of: #"^\d{3},\d{2}\b"#, options: .regularExpression) != nil
                if splitsDecimals || groupsThousands, let joined = AmountParser.parse(word + next), joined.hasDecimals,
                    AmountParser.parse(word)?.hasDecimals != true
                {
                    amounts.append(
                        LineAmount(
                            value: joined.value, isMoney: true, isOCRCorrected: true,
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
                        value: parsed.value, isMoney: parsed.hasDecimals, wholeGroupMark: parsed.wholeGroupMark,
                        isOCRCorrected: parsed.isOCRCorrected, isAmbiguous: parsed.isAmbiguous, firstWord: index,
                        lastWord: index, confidence: words[index].confidence / 100))
            }
            index += 1
        }
        return amounts
    }
}

/// What a line says about the amount on it.
enum LineRole: String, Sendable, Equatable {
    case total, subtotal, tax, tip, discount, fee, rounding, tendered, change, itemCount, deposit

    /// The role of each keyword class that gives a line one (`KeywordLexicon`); net and gross name table columns.
    static func role(of keywordClass: KeywordLexicon.KeywordClass) -> LineRole? {
        switch keywordClass {
        case .itemCount: .itemCount
        case .deposit: .deposit
        case .change: .change
        case .rounding: .rounding
        case .discount: .discount
        case .tip: .tip
        case .fee: .fee
        case .taxAmount, .tax: .tax
        case .subtotal: .subtotal
        case .amountPaid, .payment: .tendered
        case .strongTotal, .namedTotal, .total: .total
        case .net, .gross: nil
        }
    }

    /// The role of a line from its folded letters-only text and letter runs: the first keyword class on it, in
    /// `KeywordLexicon.classificationOrder`.
    static func classify(letters: String, tokens: Set<String>) -> LineRole? {
        let namesTotal = letters.contains("TOTAL")
        // "Total Sales (Excluding GST)" is the subtotal; "Total (Inclusive of GST)" the total, whatever else is named.
        if namesTotal, !letters.contains("SUBTOTAL"), letters.contains("EXCL") { return .subtotal }
        let namesAmount = namesTotal || letters.contains("AMOUNT") || letters.contains("OUNT")
        // "Total (incl. GST)" names the total; "TOTAL INCLUDES 6% GST 1.51" states the tax it includes (`taxAmount`).
        let statesIncludedTax = letters.contains("INCLUDES") || letters.contains("INCLUDED")
        if namesAmount, letters.contains("INCL"), !statesIncludedTax { return .total }
        for keywordClass in KeywordLexicon.classificationOrder
        where KeywordLexicon.contains(keywordClass, letters: letters, tokens: tokens) {
            return role(of: keywordClass)
        }
        return nil
    }

    /// The role of an item-count line that prints another amount after the count (`Item Count 12 Change Amt 22.65`):
    /// the keyword after the count's number names the line's amount; nil when none follows it (`Total Qty Tender : 2`
    /// is a count whatever its words).
    static func roleAfterCount(in text: String) -> LineRole? {
        guard let count = text.firstRange(of: /\d+/) else { return nil }
        let (letters, tokens) = ReceiptLine.keywordForms(String(text[count.upperBound...]))
        let role = classify(letters: letters, tokens: tokens)
        return role == .itemCount ? nil : role
    }

    /// Whether the keyword on the line names the final amount strongly (`GRAND TOTAL`, `AMOUNT DUE`, `ZU ZAHLEN`).
    static func isStrongTotal(letters: String) -> Bool {
        letters.contains("INCL") || KeywordLexicon.words(of: .strongTotal).contains { letters.contains($0) }
    }
}
