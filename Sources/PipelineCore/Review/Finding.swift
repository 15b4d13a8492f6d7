import Foundation

/// A field of a receipt that a finding can concern.
public enum ReceiptField: String, Sendable, Codable, CaseIterable {
    case merchant, date, currency, subtotal, discounts, fees, tax, tip, total, items
    case paymentMethod = "payment_method"
}

/// The fields a receipt is accepted on: each must be trusted for the machine to accept it (`ReviewPolicy`).
public enum KeyField: String, Sendable, Codable, CaseIterable, Comparable {
    case merchant, date, total

    /// The receipt field it is.
    public var field: ReceiptField {
        switch self {
        case .merchant: .merchant
        case .date: .date
        case .total: .total
        }
    }

    /// The same field as a person corrects it.
    public var correctable: CorrectableField {
        switch self {
        case .merchant: .merchant
        case .date: .date
        case .total: .total
        }
    }

    public static func < (lhs: KeyField, rhs: KeyField) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// What a finding is about. `ReviewPolicy` decides from these codes, never from a finding's words: a new kind of
/// finding is a new case here, and the compiler asks the policy what it means.
public enum FindingCode: String, Sendable, Codable, CaseIterable {
    // A reconciliation check that failed (`ReconciliationFinding.Check`).
    /// The line items do not add up to the subtotal.
    case itemsToSubtotal = "items_to_subtotal"
    /// The line items do not add up to the total (no subtotal printed).
    case itemsToTotal = "items_to_total"
    /// Subtotal − discounts + fees + tax + tip is not the total.
    case summaryToTotal = "summary_to_total"
    /// An item's quantity × unit price is not its line total.
    case quantityTimesUnitPrice = "quantity_times_unit_price"
    /// The amount tendered less the change is not the total.
    case paymentToTotal = "payment_to_total"
    /// The VAT table's gross column does not add up to the total.
    case vatTableToTotal = "vat_table_to_total"
    /// No total was found.
    case missingTotal = "missing_total"
    /// No other printed amount ties the total down.
    case totalUnconfirmed = "total_unconfirmed"
    /// A misread digit was corrected (a note: every check passed after it).
    case digitRepaired = "digit_repaired"

    // The vision LLM.
    /// The model's reply gave a field in a form that was refused (a string for an amount, an impossible date).
    case llmFieldRefused = "llm_field_refused"
    /// The model's reply was cut off; fields after the cut were dropped.
    case llmReplyTruncated = "llm_reply_truncated"
    /// The model's reply held nothing usable.
    case llmReplyUnusable = "llm_reply_unusable"
    /// A value the model gave is not printed on the receipt.
    case llmValueNotPrinted = "llm_value_not_printed"
    /// The model could not be asked (a refused key, a spent quota, the receipt's call budget spent).
    case llmNotUsed = "llm_not_used"
    /// How the merge of the rules' and the model's readings settled a disagreement (a note).
    case llmMerge = "llm_merge"

    // Other readings.
    /// The merchant name a person gave this receipt's header replaced the reading (a note).
    case learnedMerchant = "learned_merchant"
    /// The total or date is printed as the known merchant's earlier receipts printed it (a note: `LayoutAgreement`).
    case knownLayout = "known_layout"
    /// The merchant, not trusted by the model alone, is trusted as a known brand read on the page's first line (a note:
    /// `AutoAcceptance.brandVouch`).
    case knownBrand = "known_brand"
    /// The merchant, not trusted by the model alone, is trusted as its name printed twice, on top and in the legal
    /// entity's line (a note: `AutoAcceptance.namedTwiceVouch`).
    case namedTwice = "named_twice"
    /// The total, not trusted by the model alone, is confirmed twice by the page's arithmetic (a note:
    /// `AutoAcceptance.arithmeticVouch`).
    case totalConfirmedTwice = "total_confirmed_twice"
    /// The total, not trusted by the model alone, is confirmed by two line items or more that add up to it, every check
    /// passing (a note: `AutoAcceptance.itemsVouch`).
    case totalConfirmedByItems = "total_confirmed_by_items"
    /// A reading the rules flag for a person's eye without doubting it (a note: ambiguous separators).
    case readingNote = "reading_note"
    /// The date's day and month could be either way round.
    case ambiguousDate = "ambiguous_date"
    /// The page prints one moment twice with dates a digit apart: one of them is misread (`DateExtractor.misreadTwin`).
    case datesDisagree = "dates_disagree"
    /// The date was read with a digit repaired, a letter taken for a digit or a digit fixed (`201o`): which digit
    /// was printed is a guess (`DateExtractor`).
    case dateRepaired = "date_repaired"
    /// No category was sure enough, so the expense is `Other` (a note: the review page says so).
    case categoryNotSure = "category_not_sure"
    /// The acceptance decision does not trust a key field (`Finding.field` names it).
    case notTrusted = "not_trusted"
    /// Text held characters the database cannot store, replaced by U+FFFD (a note: `StorableText`).
    case unstorableText = "unstorable_text"
    /// More pages were read as one receipt than one receipt may have (`ReceiptPageGrouping`).
    case tooManyPages = "too_many_pages"
    /// A page of a receipt joined from several prints a total of its own that is not the receipt's (`PageTotals`).
    case pageTotalDiffers = "page_total_differs"
    /// The page was read turned: it was scanned or photographed sideways or upside down (a note:
    /// `OCRPage.quarterTurns`).
    case pageTurned = "page_turned"
    /// A finding stored as words only, before findings had codes (migration 0040); reprocessing the receipt
    /// types it afresh.
    case untyped
}

/// One thing found about a receipt: what (a closed code), which field (when one), and the words for a person.
public struct Finding: Sendable, Equatable, Codable, CustomStringConvertible {
    public var code: FindingCode
    public var field: ReceiptField?
    /// What was found, in words an operator understands.
    public var message: String

    public init(_ code: FindingCode, field: ReceiptField? = nil, _ message: String) {
        self.code = code
        self.field = field
        self.message = message
    }

    public var description: String { message }

    /// A finding as stored (`{"code", "field", "message"}`); one whose code this build does not know, or one stored
    /// as words only (before migration 0040), keeps its words as `untyped`.
    public init(from decoder: any Decoder) throws {
        if let words = try? decoder.singleValueContainer().decode(String.self) {
            self = Finding(.untyped, words)
            return
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let code = try container.decodeIfPresent(String.self, forKey: .code).flatMap(FindingCode.init(rawValue:))
        self.code = code ?? .untyped
        self.field =
            code == nil ? nil : try container.decodeIfPresent(String.self, forKey: .field).flatMap(ReceiptField.init)
        self.message = try container.decodeIfPresent(String.self, forKey: .message) ?? ""
    }
}
