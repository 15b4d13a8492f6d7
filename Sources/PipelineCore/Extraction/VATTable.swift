import Foundation

/// A VAT table as European receipts print it below the totals: a header naming the columns (`MwSt% Netto Steuer
/// Brutto`, `MWST-Satz MWST + Netto = Brutto`, `Taux HT TVA TTC`, `IVA Base imponible Cuota`, `Aliquota Imponibile
/// Imposta`, `BTW% Grondslag BTW`, `PTU Netto Podatek Brutto`), then one row per VAT class with its rate and
/// amounts (`A 19% 10,00 1,90 11,90`). The rows' gross amounts add up to the bill's total; the tax column to its tax.
struct VATTable: Sendable, Equatable {
    /// Index of the header line.
    var header: Int
    /// Σ of the rows' gross amounts (net + tax when the table prints no gross column).
    var gross: Decimal
    /// Σ of the rows' tax amounts.
    var tax: Decimal
    /// The row lines read.
    var rows: [Int]
    /// Every row's amounts agree with its rate: tax = net × rate to the cent or two, and net + tax = gross where
    /// the gross is printed.
    var isConsistent: Bool

    /// The tax as an extracted field, for a receipt that prints no tax line of its own.
    var taxField: ExtractedField<Decimal>? {
        tax > 0 ? ExtractedField(value: tax, confidence: 0.6, sourceLines: rows) : nil
    }

    /// The table's sums for the reconciliation, when its rows agree with their rates.
    var summary: VATSummary? {
        isConsistent ? VATSummary(gross: gross, tax: tax, sourceLines: [header] + rows) : nil
    }

    /// Where the totals block ends and a tax summary begins: the first `GST SUMMARY` line or VAT table header below
    /// the first third of the page (the page's line count when there is none).
    static func summaryStart(in lines: [ReceiptLine]) -> Int {
        let lineCount = max(1, lines.count)
        return lines.first { line in
            line.index > lineCount / 3 && (line.letters.contains("SUMMARY") || isHeader(line))
        }?.index ?? lineCount
    }

    /// A line of column names without digits, three or more of them, the tax and a net or gross among them
    /// (`MwSt% Netto Steuer Brutto`, `TVA HT TVA TTC`, `Aliquota Imponibile Imposta`, `BTW Excl. BTW Incl.`).
    /// A total word counts as a column only after the first word: `Total Incl. GST RM 8.60` is the bill's total.
    /// The tax may be named twice (`MWST-Satz MWST + Netto`, `BTW% Grondslag BTW`): each mention is a column.
    static func isHeader(_ line: ReceiptLine) -> Bool {
        guard !line.text.contains(where: \.isASCIIDigit) else { return false }
        let words = ReceiptLine.letterRuns(line.text)
        let isWord = { (word: String, classes: [KeywordLexicon.KeywordClass]) in
            classes.contains { KeywordLexicon.words(of: $0).contains(word) }
        }
        let tax = words.filter { isWord($0, [.tax]) }
        let netOrGross = words.filter { isWord($0, [.net, .gross]) }
        let totals = words.dropFirst().filter { isWord($0, [.total, .namedTotal]) }
        let rates = words.filter(rateColumnWords.contains)
        return !tax.isEmpty && !netOrGross.isEmpty && tax.count + Set(netOrGross + totals + rates).count >= 3
    }

    /// The rate column's name (`MWST-Satz`, `Taux`, `Aliquota`, `Tarief`, `Tipo`, `Stawka`, `Taxa`), folded.
    static let rateColumnWords: Set<String> = ["SATZ", "TAUX", "ALIQUOTA", "TARIEF", "TIPO", "STAWKA", "TAXA", "RATE"]

    /// The table below its header: rows that print a rate (`19%`, `19,00 %`, `A 7%`, `A= 19,0%`) and two or three
    /// amounts, read until the first line that is neither such a row nor the table's sum row. The columns are told
    /// apart by their arithmetic, not their order (`Netto Steuer Brutto` and `MWST Netto Brutto` both print): of
    /// three amounts the one that is the sum of the other two is the gross, and the tax is the smaller of the
    /// others; of two, the smaller is the tax and the gross is their sum. Nil when there is no header or no row.
    static func read(_ lines: [ReceiptLine]) -> VATTable? {
        guard let header = lines.first(where: isHeader) else { return rateTotals(lines) }
        var gross = Decimal(0)
        var tax = Decimal(0)
        var rows: [Int] = []
        var isConsistent = true
        for line in lines.drop(while: { $0.index <= header.index }).prefix(8) {
            let amounts = line.moneyAmounts.map(\.value)
            guard let rate = rate(on: line), amounts.count >= 2 else {
                // The sum row (`Summe 10,00 1,90 11,90`) or a blank line between rows ends nothing yet; a row whose
                // rate was misread (`21.00x 9,38 1,97`) leaves the sums short of the bill.
                if amounts.count >= 2, !rows.isEmpty,
                    !amounts.contains(where: { TotalsExtractor.isClose($0, gross) || TotalsExtractor.isClose($0, tax) })
                {
                    isConsistent = false
                }
                if amounts.count >= 2 || line.words.isEmpty { continue }
                break
            }
            guard let row = Row(amounts: amounts), row.tax >= 0, row.tax < row.gross else { continue }
            gross += row.gross
            tax += row.tax
            rows.append(line.index)
            isConsistent = isConsistent && row.isSummed && row.agrees(with: rate)
        }
        guard !rows.isEmpty else { return nil }
        return VATTable(header: header.index, gross: gross, tax: tax, rows: rows, isConsistent: isConsistent)
    }

    /// Totals printed per tax rate in the totals block instead of a table (`Total 0% supplies: 9.57`, `Total 6%
    /// supplies (excl. GST): 14.40`, `Total 6% supplies (Inc. GST): 15.26`): lines naming a total and a rate with one
    /// amount. A rate's gross is its amount of the largest size, and its net the smallest (a credit note's are
    /// negative: `-2.88` net, `-3.05` gross). Nil unless two rates or more are printed (one rate's total is the
    /// bill's total line itself) and every rate agrees: a taxed rate prints both, their difference the net × rate,
    /// an untaxed rate one amount. These are ordinary total lines (`Totol` read as `TOTAL`), so,
    /// unlike a table under its header, they are read only when their arithmetic says what they are. The "header"
    /// is the first such line.
    static func rateTotals(_ lines: [ReceiptLine]) -> VATTable? {
        var amountsByRate: [Decimal: [Decimal]] = [:]
        var rows: [Int] = []
        for line in lines {
            guard !line.tokens.isDisjoint(with: KeywordLexicon.words(of: .total)),
                let rate = rate(on: line), line.moneyAmounts.count == 1, let amount = line.rightmostMoney?.value
            else { continue }
            amountsByRate[rate, default: []].append(amount)
            rows.append(line.index)
        }
        guard amountsByRate.count >= 2, let first = rows.first else { return nil }
        var gross = Decimal(0)
        var tax = Decimal(0)
        for (rate, amounts) in amountsByRate {
            guard let net = amounts.min(by: { abs($0) < abs($1) }),
                let rateGross = amounts.max(by: { abs($0) < abs($1) })
            else { continue }
            let row = Row(net: net, tax: rateGross - net, gross: rateGross, isSummed: true)
            guard rate == 0 ? row.tax == 0 : row.tax != 0 && row.agrees(with: rate) else { return nil }
            gross += rateGross
            tax += row.tax
        }
        return VATTable(header: first, gross: gross, tax: tax, rows: rows, isConsistent: true)
    }

    /// One row's amounts by their arithmetic.
    struct Row {
        var net: Decimal
        var tax: Decimal
        var gross: Decimal
        /// The row prints net and tax with their sum (three amounts that add up), or only net and tax.
        var isSummed: Bool

        init(net: Decimal, tax: Decimal, gross: Decimal, isSummed: Bool) {
            (self.net, self.tax, self.gross, self.isSummed) = (net, tax, gross, isSummed)
        }

        init?(amounts: [Decimal]) {
            let last = Array(amounts.suffix(3))
            if last.count == 3 {
                let sorted = last.sorted()
                guard TotalsExtractor.isClose(sorted[0] + sorted[1], sorted[2]) else {
                    // No column sums the others: read as printed most often, net, tax, gross.
                    (net, tax, gross, isSummed) = (last[0], last[1], last[2], false)
                    return
                }
                (net, tax, gross, isSummed) = (sorted[1], sorted[0], sorted[2], true)
            } else {
                let sorted = last.sorted()
                (net, tax, gross, isSummed) = (sorted[1], sorted[0], sorted[0] + sorted[1], true)
            }
        }

        /// Tax is net × rate within two cents (the shop rounds each line or the class's sum).
        func agrees(with rate: Decimal) -> Bool {
            abs(net * rate / 100 - tax) <= Decimal(string: "0.02")!
        }
    }

    /// The rate printed on a row (`19%`, `A19%`, `A= 19,0%`, `5,50 %`), nil when none.
    static func rate(on line: ReceiptLine) -> Decimal? {
        guard let range = line.text.range(of: rateShape, options: .regularExpression) else { return nil }
        let number = line.text[range].filter { $0.isASCIIDigit || $0 == "," || $0 == "." }
        return Decimal(
            string: number.replacingOccurrences(of: ",", with: "."), locale: Locale(identifier: "en_US_POSIX"))
    }

    /// A VAT rate: 1–2 digits, optional decimals, then `%`.
    static let rateShape = #"(?<![\d,.])\d{1,2}([.,]\d{1,2})?\s?%"#
}

/// The sums of a receipt's VAT table whose rows agree with their rates: printed apart from the totals block, its
/// gross sum confirms the total (`Reconciler`).
public struct VATSummary: Sendable, Equatable, Codable {
    /// Σ of the rows' gross amounts.
    public var gross: Decimal
    /// Σ of the rows' tax amounts.
    public var tax: Decimal
    /// The header and row lines.
    public var sourceLines: [Int]

    public init(gross: Decimal, tax: Decimal, sourceLines: [Int]) {
        self.gross = gross
        self.tax = tax
        self.sourceLines = sourceLines
    }
}
