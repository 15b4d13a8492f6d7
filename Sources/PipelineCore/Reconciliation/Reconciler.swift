import Foundation

/// Checks the arithmetic of a draft (docs/behaviour.md) and repairs a single misread digit when the page supports it.
///
/// Checks: Σ items ≈ subtotal (or ≈ total when there is no subtotal, with discounts, fees and tip, and tax when the
/// prices do not include it); subtotal − discounts + fees + tax + tip ≈ total, or the tax-inclusive form without
/// tax, or the last subtotal, net amount or earlier total plus the amounts printed between it and the total,
/// whatever they are called; amount tendered − change ≈ total; the VAT table's Σ gross ≈ total; quantity × unit price ≈ line total. A
/// sum against the total also passes when it is off by exactly a printed cash rounding (`RND ADJ 0.02`), and the
/// payment when it is the total rounded to five cents for cash (no rounding printed). The printed total is never
/// replaced by arithmetic alone: a corrected total must itself be printed elsewhere on the page.
public struct Reconciler: Sendable {
    /// Largest difference each check accepts.
    public var tolerance: Decimal

    public init(tolerance: Decimal) {
        self.tolerance = tolerance
    }

    /// The tolerance a configuration that names none gives (`validation.tolerance`).
    public static let defaultTolerance = Decimal(string: "0.01")!

    /// Reconciles a draft: runs every check that its fields allow, tries one supported digit repair if one fails.
    public func reconcile(_ draft: ExpenseDraft) -> ReconciliationResult {
        guard draft.total != nil else {
            let finding = ReconciliationFinding(
                check: .missingTotal, passed: false, message: "no total was found on the receipt; enter it by hand")
            return ReconciliationResult(draft: draft, outcome: .incomplete, findings: [finding] + checks(draft))
        }
        let findings = checks(draft)
        if findings.allSatisfy(\.passed) {
            if let unconfirmed = unconfirmedTotal(draft, findings: findings) {
                return ReconciliationResult(draft: draft, outcome: .incomplete, findings: findings + [unconfirmed])
            }
            return ReconciliationResult(draft: draft, outcome: .balanced, findings: findings)
        }
        if let repaired = DigitRepair(tolerance: tolerance).repair(draft, using: { checks($0) }) {
            let repairedFindings = checks(repaired.draft)
            if unconfirmedTotal(repaired.draft, findings: repairedFindings) == nil {
                return ReconciliationResult(
                    draft: repaired.draft, outcome: .repaired, findings: repairedFindings + [repaired.finding])
            }
        }
        return ReconciliationResult(draft: draft, outcome: .unbalanced, findings: findings)
    }

    /// Why the passing checks do not confirm the total, or nil when one of them ties it to other printed amounts.
    func unconfirmedTotal(_ draft: ExpenseDraft, findings: [ReconciliationFinding]) -> ReconciliationFinding? {
        guard Self.totalConfirmations(draft, findings: findings).isEmpty, let total = draft.total?.value else {
            return nil
        }
        let message =
            draft.isTotalInferred
            ? "no total line could be read: \(moneyText(total)) is the subtotal or the line items' sum taken as the total; check the printed total"
            : "the total \(moneyText(total)) could not be confirmed: no subtotal, tax or line items add up to it"
        return ReconciliationFinding(check: .nothingToCheck, passed: false, message: message)
    }

    /// The passing checks that tie the total to amounts printed apart from it: the payment, when the total is not
    /// read from the payment's own lines; the summary, the line items and the VAT table, when the total is read from a
    /// line of its own (`isTotalReadIndependently`).
    static func totalConfirmations(_ draft: ExpenseDraft, findings: [ReconciliationFinding])
        -> Set<ReconciliationFinding.Check>
    {
        Set(
            findings.filter { finding in
                finding.passed
                    && (finding.check == .paymentToTotal && isTotalPrintedApartFromPayment(draft)
                        || [.summaryToTotal, .itemsToTotal, .vatTableToTotal].contains(finding.check)
                            && isTotalReadIndependently(draft))
            }.map(\.check))
    }

    /// A total read only from the subtotal's own line, or taken as the subtotal or the items' sum for want of a
    /// legible total line, "matches" them without confirming anything: the printed total was not found.
    static func isTotalReadIndependently(_ draft: ExpenseDraft) -> Bool {
        guard !draft.isTotalInferred else { return false }
        guard let total = draft.total, let subtotal = draft.subtotal, !total.sourceLines.isEmpty else { return true }
        return !Set(total.sourceLines).isSubset(of: Set(subtotal.sourceLines))
    }

    /// The same amount printed twice confirms the total only when the payment line was read clearly: a misread
    /// digit in a receipt's font tends to repeat on both lines (`130.00` read as `730.00` twice).
    static let clearReadConfidence = 0.7

    /// A total known only as tendered less change confirms nothing when compared with those same two amounts.
    static func isTotalPrintedApartFromPayment(_ draft: ExpenseDraft) -> Bool {
        guard let total = draft.total else { return false }
        let paymentLines = Set((draft.amountTendered?.sourceLines ?? []) + (draft.change?.sourceLines ?? []))
        return !Set(total.sourceLines).isSubset(of: paymentLines)
    }

    /// Every check the draft's fields allow.
    func checks(_ draft: ExpenseDraft) -> [ReconciliationFinding] {
        var findings: [ReconciliationFinding] = []
        let itemsSum = draft.items.isEmpty ? nil : draft.items.map(\.totalPrice).reduce(0, +)
        let total = draft.total?.value
        let discountsInSubtotal = discountsPrintedAboveSubtotal(draft)
        if let itemsSum, let subtotal = draft.subtotal?.value {
            // Σ items off the subtotal by exactly an amount the page explains: the tax in the prices, or the discounts
            // printed among the items.
            let explanations: [(difference: Decimal, reason: String)] = [
                draft.tax.map { tax in
                    (
                        tax.value,
                        "the subtotal \(moneyText(subtotal)) plus tax \(moneyText(tax.value)): prices include tax"
                    )
                },
                discountsInSubtotal.map { discounts in
                    (
                        discounts,
                        "less the discounts \(moneyText(discounts)) printed among them: the subtotal \(moneyText(subtotal))"
                    )
                },
            ].compactMap { $0 }
            if abs(itemsSum - subtotal) > tolerance,
                let explained = explanations.first(where: { abs(itemsSum - subtotal - $0.difference) <= tolerance })
            {
                findings.append(
                    ReconciliationFinding(
                        check: .itemsToSubtotal, passed: true,
                        message: "line items sum to \(moneyText(itemsSum)), \(explained.reason)"))
            } else {
                findings.append(
                    compare(itemsSum, subtotal, check: .itemsToSubtotal, "line items sum to", "the subtotal is"))
            }
        } else if let itemsSum, let total, draft.tax == nil, draft.tip == nil, draft.fees == nil, draft.discounts == nil
        {
            findings.append(
                compare(
                    itemsSum, total, check: .itemsToTotal, "line items sum to", "the printed total is",
                    rounding: draft.rounding?.value))
        } else if let itemsSum, let total, let finding = itemsWithAdjustmentsToTotal(itemsSum, total, draft) {
            findings.append(finding)
        }
        if let table = draft.vatSummary, let total {
            findings.append(
                compare(
                    table.gross, total, check: .vatTableToTotal, "the VAT table's gross column sums to",
                    "the printed total is"))
        }
        if let total, let subtotal = draft.subtotal?.value {
            // Discounts printed among the items are already in the subtotal.
            let discounts = discountsInSubtotal == nil ? (draft.discounts?.value ?? 0) : 0
            let adjustments = (draft.fees?.value ?? 0) + (draft.tip?.value ?? 0) - discounts
            let withTax = subtotal + adjustments + (draft.tax?.value ?? 0)
            let taxInclusive = subtotal + adjustments
            if let tax = draft.tax?.value, abs(taxInclusive - total) <= tolerance, abs(withTax - total) > tolerance {
                let sum = adjustmentTerms(draft).isEmpty ? "" : " is \(moneyText(taxInclusive))"
                findings.append(
                    ReconciliationFinding(
                        check: .summaryToTotal, passed: true,
                        message:
                            "tax \(moneyText(tax)) is already in the subtotal: \(summaryTerms(subtotal, draft))\(sum), matching the printed total \(moneyText(total))"
                    ))
            } else if let rounding = draft.rounding?.value, abs(withTax - total) > tolerance,
                isClose(withTax, total, rounding: rounding)
            {
                findings.append(
                    ReconciliationFinding(
                        check: .summaryToTotal, passed: true,
                        message:
                            "subtotal − discounts + fees + tax + tip is \(moneyText(withTax)), the printed total \(moneyText(total)) after rounding by \(moneyText(rounding))"
                    ))
            } else if abs(withTax - total) > tolerance, let confirmed = printedSummaryConfirms(draft, total: total) {
                findings.append(confirmed)
            } else {
                findings.append(
                    compare(
                        withTax, total, check: .summaryToTotal, "subtotal − discounts + fees + tax + tip is",
                        "the printed total is"))
            }
        } else if let total, let confirmed = printedSummaryConfirms(draft, total: total) {
            // No subtotal: a net amount or an earlier total and the amounts printed below it confirm the total; a
            // mismatch is no finding.
            findings.append(confirmed)
        }
        if let total, let tendered = draft.amountTendered, let change = draft.change, change.value > 0 {
            let paid = tendered.value - change.value
            if draft.rounding == nil, paid != total, paid == Self.roundedForCash(total) {
                findings.append(
                    ReconciliationFinding(
                        check: .paymentToTotal, passed: true,
                        message:
                            "amount tendered less change is \(moneyText(paid)), the printed total \(moneyText(total)) rounded to the nearest \(moneyText(Self.cashRoundingStep)) for cash"
                    ))
            } else {
                findings.append(
                    compare(
                        paid, total, check: .paymentToTotal, "amount tendered less change is", "the printed total is",
                        rounding: draft.rounding?.value))
            }
        } else if let total = draft.total, let tendered = draft.amountTendered, tendered.value == total.value,
            !Set(total.sourceLines).subtracting(tendered.sourceLines).isEmpty,
            tendered.confidence >= Self.clearReadConfidence
        {
            findings.append(
                ReconciliationFinding(
                    check: .paymentToTotal, passed: true,
                    message: "the amount paid \(moneyText(tendered.value)) equals the printed total"))
        }
        for item in draft.items {
            guard let quantity = item.quantity, let unitPrice = item.unitPrice else { continue }
            let product = quantity * unitPrice
            if abs(product - item.totalPrice) > tolerance {
                findings.append(
                    ReconciliationFinding(
                        check: .quantityTimesUnitPrice, passed: false,
                        message:
                            "'\(item.name)': \(moneyText(quantity)) × \(moneyText(unitPrice)) = \(moneyText(product)) but the line total is \(moneyText(item.totalPrice))"
                    ))
            }
        }
        return findings
    }

    /// The discounts when every line they were read from is printed above the subtotal's: discounts among the items
    /// (`Lube Wash Coupon* -13.99`), which the subtotal already takes off. Nil otherwise.
    func discountsPrintedAboveSubtotal(_ draft: ExpenseDraft) -> Decimal? {
        guard let discounts = draft.discounts, let subtotalLine = draft.subtotal?.sourceLines.min(),
            !discounts.sourceLines.isEmpty, discounts.sourceLines.allSatisfy({ $0 < subtotalLine })
        else { return nil }
        return discounts.value
    }

    /// A passed summary check when the page's own summary (`ExpenseDraft.printedSummary`: the last subtotal, net
    /// amount or earlier total plus the amounts printed between it and the total) is the total, nil otherwise.
    func printedSummaryConfirms(_ draft: ExpenseDraft, total: Decimal) -> ReconciliationFinding? {
        guard let printed = draft.printedSummary, abs(printed.value - total) <= tolerance else { return nil }
        let terms = printed.sourceLines.count - 1
        return ReconciliationFinding(
            check: .summaryToTotal, passed: true,
            message:
                "the summary printed above the total (a subtotal, net amount or earlier total and the \(terms) amount\(terms == 1 ? "" : "s") below it) sums to \(moneyText(printed.value)), matching the printed total \(moneyText(total))"
        )
    }

    /// Items against the total when no subtotal is printed but tax, discounts, fees or a tip are: Σ items − discounts
    /// + fees + tip is the total where prices include the tax (European shops), or that plus the tax where they do
    /// not. Nil when neither form matches: items are often read incompletely, and no subtotal says which form the
    /// shop prints, so a mismatch is no evidence against the total.
    func itemsWithAdjustmentsToTotal(_ itemsSum: Decimal, _ total: Decimal, _ draft: ExpenseDraft)
        -> ReconciliationFinding?
    {
        let adjusted = itemsSum + (draft.fees?.value ?? 0) + (draft.tip?.value ?? 0) - (draft.discounts?.value ?? 0)
        let terms = (["line items \(moneyText(itemsSum))"] + adjustmentTerms(draft)).joined(separator: " ")
        if isClose(adjusted, total, rounding: draft.rounding?.value) {
            let taxNote = draft.tax.map { " (prices include tax \(moneyText($0.value)))" } ?? ""
            return ReconciliationFinding(
                check: .itemsToTotal, passed: true,
                message: "\(terms) is \(moneyText(adjusted)), matching the printed total \(moneyText(total))\(taxNote)")
        }
        if let tax = draft.tax?.value, isClose(adjusted + tax, total, rounding: draft.rounding?.value) {
            return ReconciliationFinding(
                check: .itemsToTotal, passed: true,
                message:
                    "\(terms) + tax \(moneyText(tax)) is \(moneyText(adjusted + tax)), matching the printed total \(moneyText(total))"
            )
        }
        return nil
    }

    /// The subtotal and the adjustments the draft has, as the sum reads: `subtotal 21.60 − discounts 9.20`.
    func summaryTerms(_ subtotal: Decimal, _ draft: ExpenseDraft) -> String {
        (["subtotal \(moneyText(subtotal))"] + adjustmentTerms(draft)).joined(separator: " ")
    }

    /// The discounts (unless printed among the items, so already in the subtotal), fees and tip the draft has, each
    /// with its sign (`− discounts 9.20`).
    func adjustmentTerms(_ draft: ExpenseDraft) -> [String] {
        let discounts = discountsPrintedAboveSubtotal(draft) == nil ? draft.discounts : nil
        return [("−", "discounts", discounts), ("+", "fees", draft.fees), ("+", "tip", draft.tip)].compactMap {
            sign, name, field in field.map { "\(sign) \(name) \(moneyText($0.value))" }
        }
    }

    /// Compares a computed sum with a printed amount. With `rounding`, a difference of exactly the printed cash
    /// rounding passes too: a total printed before rounding, paid or summed after it (`RND ADJ 0.02`).
    func compare(
        _ computed: Decimal, _ printed: Decimal, check: ReconciliationFinding.Check, _ computedLabel: String,
        _ printedLabel: String, rounding: Decimal? = nil
    )
        -> ReconciliationFinding
    {
        let difference = abs(computed - printed)
        let passed = isClose(computed, printed, rounding: rounding)
        let printedName = printedLabel.replacingOccurrences(of: " is", with: "")
        let message: String
        if difference <= tolerance {
            message = "\(computedLabel) \(moneyText(computed)), matching \(printedName) \(moneyText(printed))"
        } else if passed, let rounding {
            message =
                "\(computedLabel) \(moneyText(computed)), matching \(printedName) \(moneyText(printed)) after rounding by \(moneyText(rounding))"
        } else {
            message =
                "\(computedLabel) \(moneyText(computed)) but \(printedLabel) \(moneyText(printed)) (off by \(moneyText(difference)), tolerance \(moneyText(tolerance)))"
        }
        return ReconciliationFinding(check: check, passed: passed, message: message)
    }

    /// The step cash is rounded to where the smallest coins are gone (Malaysia, Australia, Canada, Switzerland, the
    /// Netherlands, Finland, Ireland): a total of 72.93 paid in cash is 72.95, with or without a printed rounding line.
    static let cashRoundingStep = Decimal(string: "0.05")!

    /// `amount` rounded to the nearest `cashRoundingStep`, halves away from zero.
    static func roundedForCash(_ amount: Decimal) -> Decimal {
        var steps = amount / cashRoundingStep
        var rounded = Decimal()
        NSDecimalRound(&rounded, &steps, 0, .plain)
        return rounded * cashRoundingStep
    }

    /// Equal within the tolerance, or apart by the printed cash rounding (within the tolerance).
    func isClose(_ computed: Decimal, _ printed: Decimal, rounding: Decimal?) -> Bool {
        let difference = abs(computed - printed)
        return difference <= tolerance || rounding.map { abs(difference - $0) <= tolerance } ?? false
    }
}
