import Foundation

/// A VAT table as European receipts print it below the totals: a header naming the columns (`MwSt% Netto Steuer
/// Brutto`, `TVA HT TVA TTC`, `IVA Base Cuota`, `PTU Netto Podatek Brutto`), then one row per VAT class with its rate
/// and amounts (`A 19% 10,00 1,90 11,90`). The rows' gross amounts add up to the bill's total; the tax column to its
/// tax.
struct VATTable: Sendable, Equatable {
    /// Index of the header line.
    var header: Int
    /// Σ of the rows' gross amounts (net + tax when the table prints no gross column).
    var gross: Decimal
    /// Σ of the rows' tax amounts.
    var tax: Decimal
    /// The row lines read.
    var rows: [Int]

    /// The tax as an extracted field, for a receipt that prints no tax line of its own.
    var taxField: ExtractedField<Decimal>? {
        tax > 0 ? ExtractedField(value: tax, confidence: 0.6, sourceLines: rows) : nil
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
    /// (`MwSt% Netto Steuer Brutto`, `TVA HT TVA TTC`, `IVA Imponibile Imposta Totale`, `BTW Excl. BTW Incl.`).
    /// A total word counts as a column only after the first word: `Total Incl. GST RM 8.60` is the bill's total.
    static func isHeader(_ line: ReceiptLine) -> Bool {
        guard !line.text.contains(where: \.isASCIIDigit) else { return false }
        let words = ReceiptLine.letterRuns(line.text)
        let isWord = { (word: String, classes: [KeywordLexicon.KeywordClass]) in
            classes.contains { KeywordLexicon.words(of: $0).contains(word) }
        }
        let tax = words.filter { isWord($0, [.tax]) }
        let netOrGross = words.filter { isWord($0, [.net, .gross]) }
        let totals = words.dropFirst().filter { isWord($0, [.total, .namedTotal]) }
        return !tax.isEmpty && !netOrGross.isEmpty && Set(tax + netOrGross + totals).count >= 3
    }

    /// The table below its header: rows that print a rate (`19%`, `19,00 %`, `A 7%`) and two or three amounts
    /// (net, tax, gross or net, tax), read until the first line that is neither such a row nor the table's sum row.
    /// Nil when there is no header or no row.
    static func read(_ lines: [ReceiptLine]) -> VATTable? {
        guard let header = lines.first(where: isHeader) else { return nil }
        var gross = Decimal(0)
        var tax = Decimal(0)
        var rows: [Int] = []
        for line in lines.drop(while: { $0.index <= header.index }).prefix(8) {
            let amounts = line.moneyAmounts.map(\.value)
            let hasRate = line.text.range(of: rateShape, options: .regularExpression) != nil
            guard hasRate, amounts.count >= 2 else {
                // The sum row (`Summe 10,00 1,90 11,90`) or a blank line between rows ends nothing yet.
                if amounts.count >= 2 || line.words.isEmpty { continue }
                break
            }
            let rowTax = amounts[amounts.count >= 3 ? amounts.count - 2 : amounts.count - 1]
            let rowGross = amounts.count >= 3 ? amounts[amounts.count - 1] : amounts[0] + amounts[1]
            guard rowTax >= 0, rowTax < rowGross else { continue }
            gross += rowGross
            tax += rowTax
            rows.append(line.index)
        }
        guard !rows.isEmpty else { return nil }
        return VATTable(header: header.index, gross: gross, tax: tax, rows: rows)
    }

    /// A VAT rate: 1–2 digits, optional decimals, then `%`.
    static let rateShape = #"(?<![\d,.])\d{1,2}([.,]\d{1,2})?\s?%"#
}
