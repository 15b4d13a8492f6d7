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
    /// The VAT table below the totals, when one is printed.
    var vatTable: VATTable?
    /// The last subtotal, net amount or earlier total above the total plus every amount printed between them
    /// (`printedSummary(lines:total:)`).
    var printedSummary: ExtractedField<Decimal>?
    /// No legible total line backs the total: it is the subtotal or the items' sum taken as the total.
    var isTotalInferred = false
    /// Every total candidate, and how the winner stood against them.
    var candidates: [TotalsExtractor.TotalCandidate] = []
    var evidence: CandidateEvidence<TotalFeature>?
}

/// Finds the totals by keyword, position and arithmetic together: the total is the amount that the keywords
/// name and the other amounts explain (subtotal + tax, Σ items, tendered − change, repeated on a payment line).
enum TotalsExtractor {
    static func extract(lines: [ReceiptLine], itemsSum: Decimal?, model: ExtractionModel) -> ReceiptTotals {
        var totals = ReceiptTotals()
        totals.subtotal = firstAmount(role: .subtotal, in: lines)
        totals.vatTable = VATTable.read(lines)
        totals.tax = summedDistinctAmounts(role: .tax, in: lines) ?? totals.vatTable?.taxField
        totals.tip = firstAmount(role: .tip, in: lines)
        totals.fees = firstAmount(role: .fee, in: lines)
        totals.discounts = (itemDiscounts(in: lines) ?? firstAmount(role: .discount, in: lines)).map {
            ExtractedField(value: abs($0.value), confidence: $0.confidence, sourceLines: $0.sourceLines)
        }
        totals.rounding = firstAmount(role: .rounding, in: lines).flatMap {
            $0.value != 0 && abs($0.value) < maximumRounding
                ? ExtractedField(value: abs($0.value), confidence: $0.confidence, sourceLines: $0.sourceLines) : nil
        }
        totals.candidates = totalCandidates(lines: lines, totals: totals, itemsSum: itemsSum)
        let ranked = RankedCandidates(totals.candidates, features: \.features, weights: model.total)
        if let best = ranked.best {
            let probability = ranked.evidence?.probability ?? 0
            totals.total = ExtractedField(
                value: best.value, confidence: probability * max(0.5, best.confidence), sourceLines: best.lines)
            totals.isTotalInferred =
                !best.hasTotalKeyword
                && (best.value == totals.subtotal?.value || best.value == itemsSum)
            totals.evidence = ranked.evidence
        }
        totals.change = firstAmount(role: .change, in: lines).map {
            ExtractedField(value: abs($0.value), confidence: $0.confidence, sourceLines: $0.sourceLines)
        }
        if let total = totals.total?.value {
            // The payment line: the first amount tendered that covers the total (`Cash -50.00`: a credit, by magnitude).
            totals.tendered =
                lines.lazy.filter { $0.role == .tendered }.compactMap { line in
                    line.rightmostMoney.flatMap { amount in
                        abs(amount.value) >= total
                            ? ExtractedField(
                                value: abs(amount.value), confidence: 0.8 * amount.confidence + 0.1,
                                sourceLines: [line.index]) : nil
                    }
                }.first
        }
        totals.printedSummary = totals.total.flatMap { printedSummary(lines: lines, total: $0) }
        // A "subtotal" equal to the total on a tax-free receipt is fine; one larger than the total is a misread.
        if let subtotal = totals.subtotal?.value, let total = totals.total?.value, subtotal > total * 2 {
            totals.subtotal = nil
        }
        if let tax = totals.tax?.value, let total = totals.total?.value, tax >= total { totals.tax = nil }
        // A subtotal read from a row of the VAT summary (`Total 6% supplies (excl. GST)`) is one rate's, not the bill's.
        if let subtotal = totals.subtotal, let rows = totals.vatTable?.rows,
            !Set(subtotal.sourceLines).isDisjoint(with: rows)
        {
            totals.subtotal = nil
        }
        return totals
    }

    /// The rightmost decimal amount of the first line with this role.
    static func firstAmount(role: LineRole, in lines: [ReceiptLine]) -> ExtractedField<Decimal>? {
        for line in lines where line.role == role {
            if let amount = line.rightmostMoney {
                return ExtractedField(
                    value: amount.value, confidence: 0.8 * amount.confidence + 0.1, sourceLines: [line.index])
            }
        }
        return nil
    }

    /// The last subtotal, net amount (`Netto(1) Eur 129,75`, `BASE IMPONIBLE 68,55`) or earlier total (`AMOUNT
    /// $85.58` before `TIP $12.84`) printed above the total's line plus every amount printed between the two, whatever
    /// their lines are called (`Food - Bulk 6.625% 0.44`, `Munci Fee 138.54`, `+ 19,0% MwSt: 24,65`, a tax amount on a
    /// line of its own): what the page's summary adds up to, keyword or not. A discount counts against it; an amount
    /// equal to the sum so far restates it (`Sub w/Tax 35.62`). Nil when no such line precedes the total, nothing is
    /// printed between them (or, after an earlier total, only a rounding), or a payment is: then the lines are not one
    /// summary block.
    static func printedSummary(lines: [ReceiptLine], total: ExtractedField<Decimal>) -> ExtractedField<Decimal>? {
        guard
            let totalLine = total.sourceLines.first(where: { index in
                lines.contains { $0.index == index && $0.role == .total }
            }) ?? total.sourceLines.first,
            let subtotalLine = lines.last(where: { line in
                line.index < totalLine && line.rightmostMoney != nil
                    && (line.role == .subtotal || line.role == .total
                        || line.role == nil
                            && KeywordLexicon.contains(.net, letters: line.letters, tokens: line.tokens))
            }),
            let subtotal = subtotalLine.rightmostMoney
        else { return nil }
        var sum = subtotal.value
        var sources = [subtotalLine.index]
        var confidence = subtotal.confidence
        var addsMoreThanRounding = false
        for line in lines where line.index > subtotalLine.index && line.index < totalLine {
            if [.tendered, .change].contains(line.role) { return nil }
            guard let amount = line.rightmostMoney, amount.value != sum else { continue }
            sum += line.role == .discount ? -abs(amount.value) : amount.value
            sources.append(line.index)
            confidence = min(confidence, amount.confidence)
            addsMoreThanRounding = addsMoreThanRounding || line.role != .rounding
        }
        // An earlier total and a rounding below it are the rounding check's (a rounding's sign is often unclear).
        guard sources.count > 1, subtotalLine.role != .total || addsMoreThanRounding else { return nil }
        return ExtractedField(value: sum, confidence: 0.8 * confidence + 0.1, sourceLines: sources)
    }

    /// Discounts printed among the items as negative amounts (`Rabatt -0,30 A`, `Preisvorteil 0,50-`), above the
    /// first total line: their sum, or nil when there is none. A positive amount on a discount line is a summary
    /// (`You saved 3.00`) of discounts already printed, or the only one, which `firstAmount` reads.
    static func itemDiscounts(in lines: [ReceiptLine]) -> ExtractedField<Decimal>? {
        let totalLine = lines.first { $0.role == .total && $0.rightmostMoney != nil }?.index ?? lines.count
        let discounts = lines.filter { $0.role == .discount && $0.index < totalLine }.compactMap { line in
            line.rightmostMoney.flatMap { $0.value < 0 ? (line.index, $0) : nil }
        }
        guard !discounts.isEmpty else { return nil }
        return ExtractedField(
            value: discounts.map(\.1.value).reduce(0, +),
            confidence: 0.8 * (discounts.map(\.1.confidence).min() ?? 0) + 0.1, sourceLines: discounts.map(\.0))
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
            guard let amount = line.rightmostMoney, amount.value >= 0, !seen.contains(amount.value),
                names.insert(name).inserted
            else { continue }
            seen.append(amount.value)
            sources.append(line.index)
            confidence = min(confidence, amount.confidence)
        }
        guard !seen.isEmpty else { return nil }
        return ExtractedField(value: seen.reduce(0, +), confidence: 0.7 * confidence + 0.1, sourceLines: sources)
    }

    /// An amount that could be the total, described by what the page says about it.
    struct TotalCandidate {
        var value: Decimal
        var lines: [Int]
        var confidence: Double
        /// The line names it as the total (`TOTAL`, `GRAND TOTAL`, a rounded total).
        var hasTotalKeyword: Bool
        var features: CandidateFeatures<TotalFeature>
    }

    /// What one line says about an amount on it being the total, as indicator features.
    static func keywordFeatures(_ line: ReceiptLine, amount: Decimal, isRightmost: Bool) -> CandidateFeatures<
        TotalFeature
    > {
        switch line.role {
        // "Rounding RM 182.00": an amount far above a few cents on a rounding line is the rounded total.
        case .rounding where amount >= maximumRounding: [.roundedTotalLine: 1]
        case .total where LineRole.isStrongTotal(letters: line.letters):
            isRightmost ? [.strongTotalLine: 1] : [.totalLineNotRightmost: 1]
        case .total: isRightmost ? [.totalLine: 1] : [.totalLineNotRightmost: 1]
        case .tendered: [.tenderedLine: 1]
        case .subtotal: [.subtotalLine: 1]
        case .tax, .tip, .fee, .discount, .change, .itemCount, .deposit: [.otherRoleLine: 1]
        case .rounding: [.otherRoleLine: 1]
        case nil: [.plainLine: 1]
        }
    }

    /// The rows of a consistent VAT table whose gross sum another line prints (`Total 0% supplies: 26.61` beside
    /// `Total Payable: 23.56`): each names one rate's total, not the bill's, so their amounts are no total candidates.
    static func rowsOfOneRate(_ table: VATTable?, lines: [ReceiptLine]) -> Set<Int> {
        guard let table, table.isConsistent else { return [] }
        let rows = Set(table.rows)
        let grossPrintedApart = lines.contains { line in
            !rows.contains(line.index) && line.moneyAmounts.contains { isClose($0.value, table.gross) }
        }
        return grossPrintedApart ? rows : []
    }

    /// Every distinct positive amount (and zero or negative one on a total line) that could be the total, with its
    /// features: the keywords of the lines it is printed on, how often and where it is printed, and whether
    /// subtotal + tax, tendered − change, a rounding line or Σ items explain it. Weights for these features are fitted (`ExtractionModel.total`), not set by hand.
    static func totalCandidates(lines: [ReceiptLine], totals: ReceiptTotals, itemsSum: Decimal?) -> [TotalCandidate] {
        struct Evidence {
            var keywords: CandidateFeatures<TotalFeature> = [:]
            var lines: Set<Int> = []
            var confidence = 0.0
            var lastLine = 0
            var isDerived = false
            var hasTotalKeyword: Bool {
                [TotalFeature.strongTotalLine, .totalLine, .roundedTotalLine].contains { keywords[$0] != nil }
            }
        }
        var evidence: [Decimal: Evidence] = [:]
        let lineCount = max(1, lines.count)
        // Tax summary tables after "GST SUMMARY" or a VAT table's header repeat net and tax amounts under a "Total"
        // that is not the bill's.
        let summaryStart = VATTable.summaryStart(in: lines)
        let vatTable = VATTable.read(lines)
        func amounts(_ role: LineRole) -> [Decimal] {
            lines.filter { $0.role == role && $0.index < summaryStart }.compactMap(\.rightmostMoney).map(\.value)
        }
        // A register may print the payment as a credit (`Cash -50.00`) and the change as a debit: by magnitude.
        let tendered = amounts(.tendered).map(abs)
        let change = amounts(.change).map(abs)
        let rounding = amounts(.rounding).map(abs).filter { $0 < maximumRounding }
        let rateRows = rowsOfOneRate(vatTable, lines: lines)
        for line in lines where line.index < summaryStart && !rateRows.contains(line.index) {
            let found = line.moneyAmounts
            // A zero or negative total is printed on a total line (`Total: $0.00` for an exchange, `TOTAL -3.29` for a
            // refund); elsewhere such amounts are taxes, change and discounts.
            for (position, amount) in found.enumerated() where amount.value > 0 || line.role == .total {
                var entry = evidence[amount.value] ?? Evidence()
                let keywords = keywordFeatures(line, amount: amount.value, isRightmost: position == found.count - 1)
                entry.keywords.merge(keywords) { max($0, $1) }
                entry.lines.insert(line.index)
                entry.confidence = max(entry.confidence, amount.confidence)
                entry.lastLine = max(entry.lastLine, line.index)
                evidence[amount.value] = entry
            }
        }
        guard !evidence.isEmpty else { return [] }
        let keywordTotals = evidence.filter { $0.value.hasTotalKeyword }.map(\.key)
        let subtotal = totals.subtotal?.value
        let tax = totals.tax?.value ?? 0
        let extras = (totals.tip?.value ?? 0) + (totals.fees?.value ?? 0) - (totals.discounts?.value ?? 0)
        func isSummed(_ value: Decimal, from base: Decimal?) -> Bool {
            guard let base, tax > 0 || extras != 0 else { return false }
            // Tax added, or already included in the subtotal ("6% GST Included").
            let computed = [base + tax + extras] + (extras != 0 ? [base + extras] : [])
            return computed.contains { computed in
                isClose(computed, value)
                    || rounding.contains { isClose(computed + $0, value) || isClose(computed - $0, value) }
            }
        }
        // A total line above another, the tax and rounding printed between them (`Total Sales Amount 33.00`, `GST 6%
        // 1.98`, `Rounding Adjustment 0.02`, `TOTAL 35.00`): the upper one is the bill before tax, as a subtotal is.
        func isSummedFromTotalAbove(_ value: Decimal, _ entry: Evidence) -> Bool {
            guard entry.hasTotalKeyword, subtotal == nil else { return false }
            return evidence.contains { other, above in
                other < value && above.hasTotalKeyword && (above.lines.max() ?? 0) < (entry.lines.min() ?? 0)
                    && isSummed(value, from: other)
            }
        }
        // What was paid less the change is a total even when its own line cannot be read.
        let paymentLines = lines.filter { ($0.role == .tendered || $0.role == .change) && $0.index < summaryStart }.map(
            \.index)
        for paid in tendered {
            for returned in change where returned > 0 && paid > returned && evidence[paid - returned] == nil {
                evidence[paid - returned] = Evidence(
                    lines: Set(paymentLines), confidence: 0.6, lastLine: paymentLines.max() ?? 0, isDerived: true)
            }
        }
        let largest = evidence.filter { !tendered.contains($0.key) || $0.value.hasTotalKeyword }.map(\.key).max()
        return evidence.map { value, entry in
            var features = entry.keywords
            features[.repeats] = min(3, Double(entry.lines.count - 1))
            features[.position] = Double(entry.lastLine) / Double(lineCount)
            features[.ocrConfidence] = entry.confidence
            if entry.isDerived { features[.tenderedLessChangeOnly] = 1 }
            if value <= 0 { features[.notPositive] = 1 }
            if value != subtotal, isSummed(value, from: subtotal) || isSummedFromTotalAbove(value, entry) {
                features[.subtotalPlusTax] = 1
            }
            if value == subtotal { features[.equalsSubtotal] = 1 }
            if let itemsSum, isClose(itemsSum, value) { features[.itemsSum] = 1 }
            // The VAT table's gross column adds up to the bill (Σ gross = total).
            if let gross = vatTable?.gross, isClose(gross, value) { features[.vatTableGross] = 1 }
            if tendered.contains(where: { paid in paid > value && change.contains { isClose(paid - $0, value) } }) {
                features[.tenderedLessChange] = 1
            }
            // Cash rounding (to 0.05 in Malaysia, Canada, …): of two amounts a rounding line apart, the rounded one
            // is what was paid.
            let roundingPartner = evidence.keys.contains { other in
                other != value && (entry.hasTotalKeyword || keywordTotals.contains(other))
                    && rounding.contains { $0 > 0 && isClose(abs(other - value), $0) }
            }
            let nearTotal =
                entry.hasTotalKeyword
                && keywordTotals.contains { other in
                    other != value && abs(other - value) <= Decimal(string: "0.02")!
                        && isMultipleOfFiveCents(other) != isMultipleOfFiveCents(value)
                }
            if roundingPartner || nearTotal {
                features[isMultipleOfFiveCents(value) ? .roundedOfPair : .unroundedOfPair] = 1
            }
            if value == largest { features[.largest] = 1 }
            if keywordTotals.isEmpty, tendered.contains(value) { features[.paidWithoutTotalLine] = 1 }
            if let subtotal, value < subtotal, totals.discounts == nil { features[.belowSubtotal] = 1 }
            return TotalCandidate(
                value: value, lines: entry.lines.sorted(), confidence: entry.confidence,
                hasTotalKeyword: entry.hasTotalKeyword, features: features)
        }.sorted { $0.value < $1.value }
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
