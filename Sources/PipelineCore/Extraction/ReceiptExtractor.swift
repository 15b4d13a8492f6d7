import Foundation

/// Turns an OCR page into a draft expense with rules only: pure, no I/O, safe to call from any thread.
public enum ReceiptExtractor {
    /// Extracts every field it can find; fields it cannot find stay nil rather than guessed.
    public static func extract(_ page: OCRPage) -> ExpenseDraft {
        let lines = page.lines.enumerated().map { ReceiptLine(index: $0.offset, line: $0.element) }
        var draft = ExpenseDraft()
        draft.amountsInText = lines.flatMap { $0.amounts.filter(\.hasDecimals).map(\.value) }
        draft.merchant = MerchantExtractor.extract(
            lines: lines, headerLines: page.headerLines.enumerated().map { ReceiptLine(index: $0.offset, line: $0.element) })

        let currency = CurrencyDetector.detect(lines: lines.map(\.text))
        if let currency {
            draft.currency = ExtractedField(
                value: currency.code, confidence: currency.confidence, sourceLines: currency.lineIndex.map { [$0] } ?? [])
        }
        if let (date, notes) = DateExtractor.extract(
            lines: lines, monthFirst: CurrencyDetector.isMonthFirst(currency: currency?.code))
        {
            draft.date = date
            draft.notes += notes
        }

        // Items start below the name; a name read from the web address at the foot does not end the header.
        let headerEnd = (draft.merchant?.sourceLines.filter { $0 < MerchantExtractor.searchDepth }.max() ?? -1) + 1
        draft.items = LineItemExtractor.extract(lines: lines, headerEnd: headerEnd)
        let itemsSum = draft.items.isEmpty ? nil : draft.items.map(\.totalPrice).reduce(0, +)
        let totals = TotalsExtractor.extract(lines: lines, itemsSum: itemsSum)
        draft.total = totals.total
        draft.isTotalInferred = totals.isTotalInferred
        draft.subtotal = totals.subtotal
        draft.tax = totals.tax
        draft.tip = totals.tip
        draft.fees = totals.fees
        draft.discounts = totals.discounts
        draft.rounding = totals.rounding
        draft.amountTendered = totals.tendered
        draft.change = totals.change
        draft.paymentMethod = PaymentMethodExtractor.extract(lines: lines)
        if lines.contains(where: { $0.amounts.contains(where: \.isAmbiguous) }) {
            draft.notes.append("some amounts like 1,234 could be read with a decimal comma; read as thousands")
        }
        return draft
    }
}
