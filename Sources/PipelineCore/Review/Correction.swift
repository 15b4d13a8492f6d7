import Foundation

/// Corrections and decisions, with their audit trail.
///
/// Corrections are binding: an implementation must keep a corrected field's person value on every later write of
/// the expense (a reprocess, a re-categorization), and remember a corrected merchant for later receipts.
public protocol CorrectionStore: Sendable {
    /// Applies corrections (already normalized by `FieldValue`), line item edits and optionally a decision, in one
    /// transaction; fields and items whose value does not change are left out of the audit trail. Once a person
    /// edited a receipt's items, their list is the receipt's list on every later write of the expense.
    /// - Returns: the corrections recorded, and the receipts the review queued to be read again.
    /// - Throws: `ReviewError` when the receipt does not exist or has no expense yet, or an item edit names an item
    ///   the receipt does not have.
    @discardableResult
    func review(
        _ receiptID: Int64, corrections: [CorrectableField: String?], items: [ItemEdit], decision: ReviewDecision?,
        by person: String
    ) async throws -> ReviewOutcome
}

/// What a review recorded, and what it set off.
public struct ReviewOutcome: Sendable, Equatable {
    /// The corrections recorded (empty: nothing changed).
    public var corrections: [Correction]
    /// Receipts waiting for review that a confirmation queued to be read again with what it taught
    /// (`HeldReceiptRereading`), ascending.
    public var rereading: [Int64]

    public init(corrections: [Correction], rereading: [Int64] = []) {
        self.corrections = corrections
        self.rereading = rereading
    }
}

extension CorrectionStore {
    /// Applies corrections and optionally a decision, without item edits.
    @discardableResult
    public func review(
        _ receiptID: Int64, corrections: [CorrectableField: String?], decision: ReviewDecision?, by person: String
    ) async throws -> ReviewOutcome {
        try await review(receiptID, corrections: corrections, items: [], decision: decision, by: person)
    }
}

/// A stored expense field a person can correct, by its name in the audit trail (`corrections.field`).
public enum CorrectableField: String, Sendable, Codable, CaseIterable {
    case merchant, date, currency, subtotal, discounts, fees, tax, tip, total, category
    case paymentMethod = "payment_method"

    /// The field's name on the page.
    public var label: String {
        switch self {
        case .paymentMethod: "payment method"
        default: rawValue
        }
    }

    /// Whether the field holds money (a decimal amount).
    public var isMoney: Bool {
        [.subtotal, .discounts, .fees, .tax, .tip, .total].contains(self)
    }

    /// Whether a person's value `new` leaves the stored value `old` as it is (then it is no correction): the same
    /// text, or for money the same amount written differently (`6.8` and `6.80`).
    public func isUnchanged(from old: String?, to new: String?) -> Bool {
        guard let old, let new else { return old == nil && new == nil }
        guard isMoney else { return old == new }
        let posix = Locale(identifier: "en_US_POSIX")
        return Decimal(string: old, locale: posix) == Decimal(string: new, locale: posix)
    }
}

/// A person's decision on a receipt, kept in the audit trail as a correction of its `status`.
public enum ReviewDecision: String, Sendable, Codable, CaseIterable {
    /// The expense is right (after any corrections).
    case accept
    /// Not an expense (a photo of something else, a duplicate): kept, but out of the queue and the reports.
    case reject

    /// The expense status the decision sets.
    public var status: ExpenseStatus { self == .accept ? .accepted : .rejected }
}

/// One entry of the audit trail: what the machine read, what a person set, who and when.
public struct Correction: Sendable, Equatable, Codable {
    /// What was corrected.
    public var field: CorrectionField
    public var machineValue: String?
    public var personValue: String?
    public var correctedBy: String
    public var correctedAt: Date

    public init(
        field: CorrectionField, machineValue: String?, personValue: String?, correctedBy: String, correctedAt: Date
    ) {
        self.field = field
        self.machineValue = machineValue
        self.personValue = personValue
        self.correctedBy = correctedBy
        self.correctedAt = correctedAt
    }
}

/// What one audit-trail entry corrected, by its name in `corrections.field`: an expense field (its
/// `CorrectableField` name), `status` for an accept or reject, or `item` for a line item edit (whose values are item
/// readings such as `#2 Coffee × 2 = 5.50`).
public enum CorrectionField: Sendable, Hashable, Codable, RawRepresentable {
    case field(CorrectableField)
    /// The expense's status, set by an accept or reject.
    case status
    /// A line item edit.
    case item

    public init?(rawValue: String) {
        switch rawValue {
        case "status": self = .status
        case "item": self = .item
        default:
            guard let field = CorrectableField(rawValue: rawValue) else { return nil }
            self = .field(field)
        }
    }

    public var rawValue: String {
        switch self {
        case .field(let field): field.rawValue
        case .status: "status"
        case .item: "item"
        }
    }

    /// Whether the entry changes what the arithmetic checks read: a money field or the items.
    public var changesAmounts: Bool {
        switch self {
        case .field(let field): field.isMoney
        case .status: false
        case .item: true
        }
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = CorrectionField(rawValue: text) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: decoder.codingPath, debugDescription: "'\(text)' is not a corrected field"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
