import Foundation

/// Tries single-digit corrections of one amount so that every check passes, accepting only corrections the page
/// supports: the corrected value is printed elsewhere on the page, or the amount's own digits were read with low
/// confidence (non-total fields only). The total is only ever corrected to a value printed elsewhere.
struct DigitRepair {
    var tolerance: Decimal

    /// Digits OCR confuses with each other.
    static let confusions: [Character: [Character]] = [
        "0": ["8", "6", "9"], "1": ["7", "4"], "2": ["7"], "3": ["8", "5"], "4": ["1", "9"], "5": ["6", "3", "8"],
        "6": ["5", "8", "0"], "7": ["1", "2"], "8": ["0", "3", "6", "9", "5"], "9": ["8", "0", "4"],
    ]

    /// Confidence below which a non-total amount counts as doubtful enough to correct.
    static let doubtfulConfidence = 0.75

    struct Repaired {
        var draft: ExpenseDraft
        var finding: ReconciliationFinding
    }

    func repair(_ draft: ExpenseDraft, using checks: (ExpenseDraft) -> [ReconciliationFinding]) -> Repaired? {
        // A repair mends the checks that fail; one that a passing check no longer confirms (the payment of the
        // total as read, gone once the total is changed) trades a misread for another.
        let passing = Set(checks(draft).filter(\.passed).map(\.check))
        var solutions: [Repaired] = []
        for field in AmountField.allCases {
            guard let value = field.value(in: draft) else { continue }
            for candidate in variants(of: value) where candidate != 0 {
                let printedElsewhere = draft.amountsInText.contains(candidate)
                let supported =
                    printedElsewhere || (field != .total && field.confidence(in: draft) < Self.doubtfulConfidence)
                guard supported else { continue }
                var changed = draft
                field.set(candidate, in: &changed)
                let findings = checks(changed)
                guard !findings.isEmpty, findings.allSatisfy(\.passed),
                    passing.isSubset(of: findings.map(\.check)),
                    findings.contains(where: {
                        [.summaryToTotal, .itemsToTotal, .paymentToTotal, .vatTableToTotal].contains($0.check)
                    })
                else { continue }
                let why =
                    printedElsewhere
                    ? "it is printed elsewhere on the receipt" : "its digits were read with low confidence"
                let finding = ReconciliationFinding(
                    check: .repair, passed: true,
                    message:
                        "\(field.label) read as \(moneyText(value)) was corrected to \(moneyText(candidate)) (\(why)); every check then passes",
                    field: field.receiptField)
                solutions.append(Repaired(draft: changed, finding: finding))
            }
        }
        // Two different repairs that both work: the page does not say which, so none is applied.
        return solutions.count == 1 ? solutions[0] : nil
    }

    /// Every value that differs from `value` in exactly one confusable digit.
    func variants(of value: Decimal) -> [Decimal] {
        let text = moneyText(value)
        let characters = Array(text)
        var result: [Decimal] = []
        for (index, character) in characters.enumerated() {
            for replacement in Self.confusions[character] ?? [] {
                var changed = characters
                changed[index] = replacement
                if let decimal = Decimal(string: String(changed), locale: Locale(identifier: "en_US_POSIX")),
                    decimal != value
                {
                    result.append(decimal)
                }
            }
        }
        return result
    }

    /// The draft amounts a repair may change.
    enum AmountField: CaseIterable {
        case total, subtotal, tax, tip, fees, discounts

        var keyPath: WritableKeyPath<ExpenseDraft, ExtractedField<Decimal>?> {
            switch self {
            case .total: \.total
            case .subtotal: \.subtotal
            case .tax: \.tax
            case .tip: \.tip
            case .fees: \.fees
            case .discounts: \.discounts
            }
        }

        var label: String { "\(self)" }

        var receiptField: ReceiptField {
            switch self {
            case .total: .total
            case .subtotal: .subtotal
            case .tax: .tax
            case .tip: .tip
            case .fees: .fees
            case .discounts: .discounts
            }
        }

        func value(in draft: ExpenseDraft) -> Decimal? { draft[keyPath: keyPath]?.value }
        func confidence(in draft: ExpenseDraft) -> Double { draft[keyPath: keyPath]?.confidence ?? 1 }
        func set(_ value: Decimal, in draft: inout ExpenseDraft) { draft[keyPath: keyPath]?.value = value }
    }
}
