import Foundation

/// How the arithmetic of a draft came out.
public enum ReconciliationOutcome: String, Sendable, Equatable, Codable {
    /// Every check that could run passed, and at least one of them ties the total to other amounts
    /// (subtotal and tax, line items, or the amount tendered less change).
    case balanced
    /// One misread digit, supported by the OCR text, was corrected and every check then passed.
    case repaired
    /// A check failed.
    case unbalanced
    /// The total is missing or nothing on the receipt can confirm it.
    case incomplete
}

/// What happens to the expense: kept as extracted, or held for a person; `rejected` only by a person's decision.
public enum ExpenseStatus: String, Sendable, Equatable, Codable, CaseIterable {
    case accepted
    case needsReview = "needs_review"
    /// A person said it is not an expense: kept, but out of the queue and the reports.
    case rejected
}

/// One check's result in words an operator understands.
public struct ReconciliationFinding: Sendable, Equatable, Codable, CustomStringConvertible {
    public enum Check: String, Sendable, Equatable, Codable {
        case itemsToSubtotal = "items_to_subtotal"
        case itemsToTotal = "items_to_total"
        case summaryToTotal = "summary_to_total"
        case quantityTimesUnitPrice = "quantity_times_unit_price"
        case paymentToTotal = "payment_to_total"
        case vatTableToTotal = "vat_table_to_total"
        case missingTotal = "missing_total"
        case nothingToCheck = "nothing_to_check"
        case repair

        /// The code of the finding a failed check (or a repair) records.
        var code: FindingCode {
            switch self {
            case .itemsToSubtotal: .itemsToSubtotal
            case .itemsToTotal: .itemsToTotal
            case .summaryToTotal: .summaryToTotal
            case .quantityTimesUnitPrice: .quantityTimesUnitPrice
            case .paymentToTotal: .paymentToTotal
            case .vatTableToTotal: .vatTableToTotal
            case .missingTotal: .missingTotal
            case .nothingToCheck: .totalUnconfirmed
            case .repair: .digitRepaired
            }
        }

        /// The field a failed check casts doubt on.
        var field: ReceiptField {
            switch self {
            case .itemsToSubtotal: .subtotal
            case .quantityTimesUnitPrice: .items
            case .itemsToTotal, .summaryToTotal, .paymentToTotal, .vatTableToTotal, .missingTotal, .nothingToCheck,
                .repair:
                .total
            }
        }
    }

    public var check: Check
    public var passed: Bool
    public var message: String
    /// The field the finding concerns, when not the check's own (the amount a repair corrected).
    public var field: ReceiptField?

    public init(check: Check, passed: Bool, message: String, field: ReceiptField? = nil) {
        self.check = check
        self.passed = passed
        self.message = message
        self.field = field
    }

    public var description: String { message }

    /// The finding to record: a failed check, or a repair (a note); nil for a check that passed.
    public var finding: Finding? {
        guard !passed || check == .repair else { return nil }
        return Finding(check.code, field: field ?? check.field, message)
    }
}

/// The reconciled draft with its outcome, findings and status.
public struct ReconciliationResult: Sendable, Equatable, Codable {
    /// The draft after any repair.
    public var draft: ExpenseDraft
    public var outcome: ReconciliationOutcome
    public var findings: [ReconciliationFinding]

    public init(draft: ExpenseDraft, outcome: ReconciliationOutcome, findings: [ReconciliationFinding]) {
        self.draft = draft
        self.outcome = outcome
        self.findings = findings
    }

    /// The checks that tie the total to amounts printed apart from it (`Reconciler.totalConfirmations`).
    public var totalConfirmations: Set<ReconciliationFinding.Check> {
        Reconciler.totalConfirmations(draft, findings: findings)
    }

    /// What to record of the checks: those that failed, and the repair that made them pass.
    public var recordedFindings: [Finding] { findings.compactMap(\.finding) }
}
