import Foundation

/// The money summary of a receipt: total, subtotal, tax, tip, fees, discounts.
struct ReceiptTotals {
    var total: ExtractedField<Decimal>?
    var subtotal: ExtractedField<Decimal>?
    var tax: ExtractedField<Decimal>?
    var tip: ExtractedField<Decimal>?
    var fees: ExtractedField<Decimal>?
    var discounts: ExtractedField<Decimal>?
    var rounding: ExtractedField<Decimal>?
    var tendered: ExtractedField<Decimal>?
    var change: ExtractedField<Decimal>?
    /// No legible total line backs the total: it is the subtotal or the items' sum taken as the total.
    var isTotalInferred = false
}

/// Finds the totals by keyword, position and arithmetic together: the total is the amount that the keywords
/// name and the other amounts explain (subtotal + tax, Σ items, tendered − change, repeated on a payment line).
enum TotalsExtractor {
    static func extract(lines: [ReceiptLine], itemsSum: Decimal?) -> ReceiptTotals {
        var totals = ReceiptTotals()
        totals.subtotal = firstAmount(role: .subtotal, in: lines)
        totals.tax = summedDistinctAmounts(role: .tax, in: lines)
        totals.tip = firstAmount(role: .tip, in: lines)
        totals.fees = firstAmount(role: .fee, in: lines)
        totals.discounts = firstAmount(role: .discount, in: lines).map {
            ExtractedField(value: abs($0.value), confidence: $0.confidence, sourceLines: $0.sourceLines)
        }
        totals.rounding = firstAmount(role: .rounding, in: lines).flatMap {
            $0.value != 0 && abs($0.value) < maximumRounding
                ? ExtractedField(value: abs($0.value), confidence: $0.confidence, sourceLines: $0.sourceLines) : nil
        }
        if let (total, keyword) = bestTotal(lines: lines, totals: totals, itemsSum: itemsSum) {
            totals.total = total
            totals.isTotalInferred = keyword < totalKeywordScore
                && (total.value == totals.subtotal?.value || total.value == itemsSum)
        }
        totals.change = firstAmount(role: .change, in: lines)
        if let total = totals.total?.value {
            // The payment line: the first amount tendered that covers the total.
            totals.tendered = lines.lazy.filter { $0.role == .tendered }.compactMap { line in
                line.rightmostMoney.flatMap { amount in
                    amount.value >= total ? ExtractedField(value: amount.value, confidence: 0.8 * amount.confidence + 0.1, sourceLines: [line.index]) : nil
                }
            }.first
        }
        // A "subtotal" equal to the total on a tax-free receipt is fine; one larger than the total is a misread.
        if let subtotal = totals.subtotal?.value, let total = totals.total?.value, subtotal > total * 2 { totals.subtotal = nil }
        if let tax = totals.tax?.value, let total = totals.total?.value, tax >= total { totals.tax = nil }
        return totals
    }

    /// The rightmost decimal amount of the first line with this role.
    static func firstAmount(role: LineRole, in lines: [ReceiptLine]) -> ExtractedField<Decimal>? {
        for line in lines where line.role == role {
            if let amount = line.rightmostMoney ?? nextLineAmount(after: line, in: lines) {
                return ExtractedField(value: amount.value, confidence: 0.8 * amount.confidence + 0.1, sourceLines: [line.index])
            }
        }
        return nil
    }

    /// Tax printed on several lines (GST + PST) is the sum of the distinct amounts; a line named like one already
    /// counted (`TAXES` on a second copy of the receipt, read `0.09` instead of `0.00`) is not another tax.
    static func summedDistinctAmounts(role: LineRole, in lines: [ReceiptLine]) -> ExtractedField<Decimal>? {
        var seen: [Decimal] = []
        var names: Set<String> = []
        var sources: [Int] = []
        var confidence = 1.0
        for line in lines where line.role == role {
            let name = ReceiptLine.letterRuns(line.text).prefix(2).joined()
            guard let amount = line.rightmostMoney, amount.value >= 0, !seen.contains(amount.value), names.insert(name).inserted
            else { continue }
            seen.append(amount.value)
            sources.append(line.index)
            confidence = min(confidence, amount.confidence)
        }
        guard !seen.isEmpty else { return nil }
        return ExtractedField(value: seen.reduce(0, +), confidence: 0.7 * confidence + 0.1, sourceLines: sources)
    }

    /// When the keyword line has no amount, the amount is often alone on the line below.
    static func nextLineAmount(after line: ReceiptLine, in lines: [ReceiptLine]) -> LineAmount? {
        guard line.index + 1 < lines.count else { return nil }
        let next = lines[line.index + 1]
        guard next.role == nil, next.letters.count <= 3 else { return nil }
        return next.rightmostMoney
    }

    /// The keyword score from which a line names its amount as the total (a total or rounded-total line).
    static let totalKeywordScore = 3.0

    /// What one role on a line says about its amount being the total.
    static func keywordScore(_ line: ReceiptLine, amount: Decimal, isRightmost: Bool) -> Double {
        switch line.role {
        // "Rounding RM 182.00": an amount far above a few cents on a rounding line is the rounded total.
        case .rounding where amount >= maximumRounding: 3
        case .total: (LineRole.isStrongTotal(letters: line.letters) ? 5 : 3) * (isRightmost ? 1 : 0.6)
        case .tendered: 0.8
        case .subtotal: 0.5
        case .tax, .tip, .fee, .discount, .rounding, .change, .itemCount: -1.5
        case nil: 0
        }
    }

    /// On a page with cents, a whole number on a total line is a total whose cents were lost (`Total 42 :` under
    /// `Subtotal 36.00`) only when it is at least the subtotal and not far above it.
    static func isPlausibleWholeTotal(_ value: Decimal, subtotal: Decimal?) -> Bool {
        guard let subtotal, subtotal > 0 else { return false }
        return value >= subtotal && value <= subtotal * Decimal(string: "1.3")!
    }

    /// A total printed without decimals (`TOTAL 43,000` in a currency without cents).
    static func wholeAmount(on line: ReceiptLine) -> [LineAmount] {
        guard let last = line.amounts.last, last.value >= 1, !line.text.contains("%") else { return [] }
        return [last]
    }

    /// Scores every distinct decimal amount as the total and returns the best: its strongest keyword, how often it
    /// is printed, and whether subtotal + tax, tendered − change, a rounding line or Σ items explain it. Returns the
    /// total with its strongest keyword score.
    static func bestTotal(lines: [ReceiptLine], totals: ReceiptTotals, itemsSum: Decimal?)
        -> (total: ExtractedField<Decimal>, keyword: Double)?
    {
        struct Evidence {
            var keyword = -Double.infinity
            var lines: Set<Int> = []
            var confidence = 0.0
            var isLate = false
        }
        var evidence: [Decimal: Evidence] = [:]
        let lineCount = max(1, lines.count)
        // Tax summary tables after "GST SUMMARY" repeat net and tax amounts under a "Total" that is not the bill's.
        let summaryStart = lines.first { $0.letters.contains("SUMMARY") && $0.index > lineCount / 3 }?.index ?? lineCount
        func amounts(_ role: LineRole) -> [Decimal] {
            lines.filter { $0.role == role && $0.index < summaryStart }.compactMap(\.rightmostMoney).map(\.value)
        }
        let tendered = amounts(.tendered)
        let change = amounts(.change)
        let rounding = amounts(.rounding).map(abs).filter { $0 < maximumRounding }
        // Receipts in currencies without cents (IDR, JPY, KRW) print whole totals; elsewhere "10 00" is a misread.
        let pageHasCents = lines.contains { !$0.moneyAmounts.isEmpty }
        for line in lines where line.index < summaryStart {
            let found = line.moneyAmounts.isEmpty && line.role == .total
                ? (nextLineAmount(after: line, in: lines).map { [$0] }
                    ?? wholeAmount(on: line).filter { !pageHasCents || isPlausibleWholeTotal($0.value, subtotal: totals.subtotal?.value) })
                : line.moneyAmounts
            for (position, amount) in found.enumerated() where amount.value > 0 {
                var entry = evidence[amount.value] ?? Evidence()
                entry.keyword = max(entry.keyword, keywordScore(line, amount: amount.value, isRightmost: position == found.count - 1))
                entry.lines.insert(line.index)
                entry.confidence = max(entry.confidence, amount.confidence)
                if Double(line.index) / Double(lineCount) > 0.3 { entry.isLate = true }
                evidence[amount.value] = entry
            }
        }
        guard !evidence.isEmpty else { return nil }
        let keywordTotals = evidence.filter { $0.value.keyword >= totalKeywordScore }.map(\.key)
        // "Total 21.83 / Rounding 0.02 / Grand total (illegible) / Paid 50.00 / Change 28.15": what was paid less
        // the change is the rounded total, even when its own line cannot be read. A total printed legibly must be
        // near it, or else the subtotal and tax must agree with it; with no legible total (`Grand Total ev 235`)
        // it stands alone.
        let subtotal = totals.subtotal?.value
        let tax = totals.tax?.value ?? 0
        let extras = (totals.tip?.value ?? 0) + (totals.fees?.value ?? 0) - (totals.discounts?.value ?? 0)
        func isSummed(_ value: Decimal) -> Bool {
            guard let subtotal, tax > 0 || extras != 0 else { return false }
            // Tax added, or already included in the subtotal ("6% GST Included").
            let computed = [subtotal + tax + extras] + (extras != 0 ? [subtotal + extras] : [])
            return computed.contains { computed in
                isClose(computed, value) || rounding.contains { isClose(computed + $0, value) || isClose(computed - $0, value) }
            }
        }
        let paymentLines = lines.filter { ($0.role == .tendered || $0.role == .change) && $0.index < summaryStart }.map(\.index)
        for paid in tendered {
            for returned in change where returned > 0 && paid > returned {
                let derived = paid - returned
                guard evidence[derived] == nil,
                    keywordTotals.isEmpty || isSummed(derived)
                        || keywordTotals.contains(where: { abs($0 - derived) <= Decimal(string: "0.05")! })
                else { continue }
                evidence[derived] = Evidence(keyword: 2.5, lines: Set(paymentLines), confidence: 0.6, isLate: true)
            }
        }
        let largest = evidence.filter { !tendered.contains($0.key) || $0.value.keyword >= 3 }.map(\.key).max()
        var scores: [Decimal: Double] = [:]
        for (value, entry) in evidence {
            var score = entry.keyword + min(1.5, Double(entry.lines.count - 1) * 0.6)
            if entry.isLate { score += 0.3 }
            if value != subtotal, isSummed(value) { score += 3 }
            if let itemsSum, isClose(itemsSum, value) { score += 1.5 }
            if tendered.contains(where: { paid in paid > value && change.contains { isClose(paid - $0, value) } }) { score += 3 }
            // Cash rounding (to 0.05 in Malaysia, Canada, …): of two keyword-backed amounts a rounding line apart,
            // the rounded one is what was paid.
            let roundingPartner = evidence.keys.contains { other in
                other != value && (entry.keyword >= 3 || keywordTotals.contains(other))
                    && rounding.contains { $0 > 0 && isClose(abs(other - value), $0) }
            }
            if roundingPartner { score += isMultipleOfFiveCents(value) ? 4 : -1.5 }
            // Two keyword totals a few cents apart, one of them a multiple of 0.05: the rounded one was paid.
            let nearTotal = entry.keyword >= 3 && keywordTotals.contains { other in
                other != value && abs(other - value) <= Decimal(string: "0.02")!
                    && isMultipleOfFiveCents(other) != isMultipleOfFiveCents(value)
            }
            if nearTotal, !roundingPartner { score += isMultipleOfFiveCents(value) ? 2 : -1.5 }
            if value == largest { score += 1 }
            // No legible total line: what was paid is the best remaining evidence.
            if keywordTotals.isEmpty, tendered.contains(value) { score += 1.5 }
            if let subtotal, value < subtotal, totals.discounts == nil { score -= 1 }
            scores[value] = score
        }
        guard let best = scores.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key < $1.key) }), best.value > 0.5,
            let entry = evidence[best.key]
        else { return nil }
        let confidence = min(0.98, 0.2 + best.value * 0.1) * max(0.5, entry.confidence)
        return (ExtractedField(value: best.key, confidence: confidence, sourceLines: entry.lines.sorted()), entry.keyword)
    }

    /// Rounding adjusts by cents (0.02 to 0.05 for cash, under 1 for "round off"); a larger amount on a rounding
    /// line is the rounded total.
    static let maximumRounding = Decimal(1)

    static func isMultipleOfFiveCents(_ value: Decimal) -> Bool {
        var twentieths = value * 20
        var whole = Decimal()
        NSDecimalRound(&whole, &twentieths, 0, .plain)
        return whole == value * 20
    }

    static func isClose(_ a: Decimal, _ b: Decimal) -> Bool { abs(a - b) <= Decimal(string: "0.01")! }
}
