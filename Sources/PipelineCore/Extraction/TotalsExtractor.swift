import Foundation

/// The money summary of a receipt: total, subtotal, tax, tip, fees, discounts.
struct ReceiptTotals {
    var total: ExtractedField<Decimal>?
    var subtotal: ExtractedField<Decimal>?
    var tax: ExtractedField<Decimal>?
    var tip: ExtractedField<Decimal>?
    var fees: ExtractedField<Decimal>?
    var discounts: ExtractedField<Decimal>?
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
        totals.total = bestTotal(lines: lines, totals: totals, itemsSum: itemsSum)
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

    /// Tax printed on several lines (GST + PST) is the sum of the distinct amounts.
    static func summedDistinctAmounts(role: LineRole, in lines: [ReceiptLine]) -> ExtractedField<Decimal>? {
        var seen: [Decimal] = []
        var sources: [Int] = []
        var confidence = 1.0
        for line in lines where line.role == role {
            guard let amount = line.rightmostMoney, amount.value > 0, !seen.contains(amount.value) else { continue }
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

    /// Scores every distinct decimal amount as the total and returns the best.
    static func bestTotal(lines: [ReceiptLine], totals: ReceiptTotals, itemsSum: Decimal?) -> ExtractedField<Decimal>? {
        struct Evidence {
            var score = 0.0
            var lines: [Int] = []
            var confidence = 0.0
        }
        var evidence: [Decimal: Evidence] = [:]
        let lineCount = max(1, lines.count)
        let tendered = lines.filter { $0.role == .tendered }.compactMap(\.rightmostMoney).map(\.value)
        let change = lines.filter { $0.role == .change }.compactMap(\.rightmostMoney).map(\.value)
        for line in lines {
            let amounts = line.moneyAmounts.isEmpty && line.role == .total
                ? (nextLineAmount(after: line, in: lines).map { [$0] } ?? []) : line.moneyAmounts
            for (position, amount) in amounts.enumerated() where amount.value > 0 {
                var entry = evidence[amount.value] ?? Evidence()
                let isRightmost = position == amounts.count - 1
                switch line.role {
                case .total:
                    entry.score += (LineRole.isStrongTotal(letters: line.letters) ? 4 : 3) * (isRightmost ? 1 : 0.6)
                case .tendered: entry.score += 0.8
                case .subtotal: entry.score += 0.3
                case .tax, .tip, .fee, .discount, .rounding, .change, .itemCount: entry.score -= 1.5
                case nil: entry.score += 0.1
                }
                let relativePosition = Double(line.index) / Double(lineCount)
                if relativePosition > 0.3 { entry.score += 0.3 }
                if amount.isOCRCorrected { entry.score -= 0.3 }
                entry.lines.append(line.index)
                entry.confidence = max(entry.confidence, amount.confidence)
                evidence[amount.value] = entry
            }
        }
        guard !evidence.isEmpty else { return nil }
        let subtotal = totals.subtotal?.value
        let tax = totals.tax?.value ?? 0
        let extras = (totals.tip?.value ?? 0) + (totals.fees?.value ?? 0) - (totals.discounts?.value ?? 0)
        let largest = evidence.keys.filter { value in !tendered.contains(value) || evidence[value]!.score > 1 }.max()
        for (value, var entry) in evidence {
            if entry.lines.count > 1 { entry.score += min(1.5, Double(entry.lines.count - 1) * 0.7) }
            if let subtotal, value != subtotal, isClose(subtotal + tax + extras, value) { entry.score += 3 }
            if let itemsSum, isClose(itemsSum, value) { entry.score += 1.5 }
            for paid in tendered where paid > value {
                if change.contains(where: { isClose(paid - $0, value) }) { entry.score += 3 }
            }
            if value == largest { entry.score += 1 }
            if let subtotal, value < subtotal { entry.score -= 1 }
            evidence[value] = entry
        }
        guard let best = evidence.max(by: { $0.value.score < $1.value.score || ($0.value.score == $1.value.score && $0.key < $1.key) }),
            best.value.score > 0.5
        else { return nil }
        let confidence = min(0.98, 0.2 + best.value.score * 0.1) * max(0.5, best.value.confidence)
        return ExtractedField(value: best.key, confidence: confidence, sourceLines: Array(Set(best.value.lines)).sorted())
    }

    static func isClose(_ a: Decimal, _ b: Decimal) -> Bool { abs(a - b) <= Decimal(string: "0.01")! }
}
