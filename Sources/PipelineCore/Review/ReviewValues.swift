import Foundation

/// Why a receipt waits for a person. `ReviewPolicy` decides them when the expense is committed, and the commit stores
/// them (these raw values) in `expenses.review_reasons`, which the queue filters and counts by. `needs_review` ⇔ at
/// least one reason.
public enum ReviewReason: String, Sendable, Codable, CaseIterable {
    /// The amounts do not add up.
    case unbalanced
    /// The total is missing, or nothing printed ties it down, so nothing could be checked.
    case incomplete
    /// An earlier expense has the same merchant, date and total, or a near-identical image.
    case possibleDuplicate = "possible_duplicate"
    /// The LLM's reading disagreed with the OCR text, or its reply was unusable.
    case llmDisagreement = "llm_disagreement"
    /// The LLM could not be asked (a refused key, a spent quota, a server that kept failing, the receipt's call
    /// budget spent): the rules' reading waits, and `pipeline reprocess --llm-failed` runs it again once the cause
    /// is fixed.
    case llmFailed = "llm_failed"
    /// The acceptance decision does not trust the merchant.
    case merchantNotSure = "merchant_not_sure"
    /// The acceptance decision does not trust the date.
    case dateNotSure = "date_not_sure"
    /// The acceptance decision does not trust the total.
    case totalNotSure = "total_not_sure"

    /// The reason that a key field is not trusted.
    public static func notSure(_ field: KeyField) -> ReviewReason {
        switch field {
        case .merchant: .merchantNotSure
        case .date: .dateNotSure
        case .total: .totalNotSure
        }
    }

    /// The reason in plain words, for the page and the command line.
    public var title: String {
        switch self {
        case .unbalanced: "totals do not add up"
        case .incomplete: "incomplete"
        case .possibleDuplicate: "possible duplicate"
        case .llmDisagreement: "LLM disagreement"
        case .llmFailed: "LLM call failed"
        case .merchantNotSure: "merchant not sure"
        case .dateNotSure: "date not sure"
        case .totalNotSure: "total not sure"
        }
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
    /// A `CorrectableField` raw value, `status` for an accept or reject, or `item` for a line item edit (its
    /// values are item readings such as `#2 Coffee × 2 = 5.50`).
    public var field: String
    public var machineValue: String?
    public var personValue: String?
    public var correctedBy: String
    public var correctedAt: Date

    /// The `field` of line item edits.
    public static let itemField = "item"

    public init(field: String, machineValue: String?, personValue: String?, correctedBy: String, correctedAt: Date) {
        self.field = field
        self.machineValue = machineValue
        self.personValue = personValue
        self.correctedBy = correctedBy
        self.correctedAt = correctedAt
    }
}

/// One row of the review queue.
public struct ReviewQueueRow: Sendable, Equatable, Codable {
    public var receiptID: Int64
    public var fileName: String
    public var merchant: String?
    /// `YYYY-MM-DD`.
    public var date: String?
    /// Exact decimal text (`12.30`).
    public var total: String?
    public var currency: String?
    public var reasons: [ReviewReason]
    public var committedAt: Date

    public init(
        receiptID: Int64, fileName: String, merchant: String?, date: String?, total: String?, currency: String?,
        reasons: [ReviewReason], committedAt: Date
    ) {
        self.receiptID = receiptID
        self.fileName = fileName
        self.merchant = merchant
        self.date = date
        self.total = total
        self.currency = currency
        self.reasons = reasons
        self.committedAt = committedAt
    }
}

/// Which part of the queue to read: oldest first, optionally only one reason.
public struct ReviewQueueQuery: Sendable, Equatable {
    public var reason: ReviewReason?
    public var limit: Int
    public var offset: Int

    public init(reason: ReviewReason? = nil, limit: Int = 100, offset: Int = 0) {
        self.reason = reason
        self.limit = limit
        self.offset = offset
    }
}

/// A page of the queue with the counts behind its filters.
public struct ReviewQueue: Sendable, Equatable {
    public var rows: [ReviewQueueRow]
    /// Receipts needing review in all.
    public var total: Int
    /// Receipts per reason (a receipt can have several).
    public var counts: [ReviewReason: Int]

    public init(rows: [ReviewQueueRow], total: Int, counts: [ReviewReason: Int]) {
        self.rows = rows
        self.total = total
        self.counts = counts
    }
}

/// One field of a receipt as the page shows it: its value, how sure the machine was, and where it read it.
public struct FieldReading: Sendable, Equatable {
    public var field: CorrectableField
    /// The stored value as text (money exact, dates `YYYY-MM-DD`), nil when nothing was read.
    public var value: String?
    /// 0–1, nil when unknown (a corrected value, or a field extraction does not score).
    public var confidence: Double?
    /// Indexes into the OCR text's lines the value was read from.
    public var evidenceLines: [Int]
    /// The latest correction of this field, when a person changed it.
    public var correction: Correction?

    public init(
        field: CorrectableField, value: String?, confidence: Double?, evidenceLines: [Int], correction: Correction?
    ) {
        self.field = field
        self.value = value
        self.confidence = confidence
        self.evidenceLines = evidenceLines
        self.correction = correction
    }
}

/// One line item as stored.
public struct ReviewItem: Sendable, Equatable {
    public var position: Int
    public var name: String
    public var quantity: String?
    public var unitPrice: String?
    public var totalPrice: String?
    public var category: String

    public init(
        position: Int, name: String, quantity: String?, unitPrice: String?, totalPrice: String?, category: String
    ) {
        self.position = position
        self.name = name
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.totalPrice = totalPrice
        self.category = category
    }
}

/// Everything the receipt page shows about one receipt.
public struct ReceiptDetail: Sendable, Equatable {
    public var receiptID: Int64
    public var fileName: String
    public var imageFormat: String
    public var status: ExpenseStatus
    /// `balanced`, `repaired`, `unbalanced` or `incomplete`.
    public var validationOutcome: String
    public var extractionSource: String
    public var fields: [FieldReading]
    /// What the machine found, notes included.
    public var findings: [Finding]
    public var reasons: [ReviewReason]
    public var dateIsAmbiguous: Bool
    /// The receipt id of the earlier expense with the same merchant, date and total, or a near-identical image.
    public var possibleDuplicateOf: Int64?
    public var items: [ReviewItem]
    /// The OCR text, one entry per line (the indexes `FieldReading.evidenceLines` use).
    public var ocrLines: [String]
    /// Where each OCR line sits on the image, when the worker stored it.
    public var layout: OCRLayout?
    /// The whole audit trail, oldest first.
    public var corrections: [Correction]

    public init(
        receiptID: Int64, fileName: String, imageFormat: String, status: ExpenseStatus, validationOutcome: String,
        extractionSource: String, fields: [FieldReading], findings: [Finding], reasons: [ReviewReason],
        dateIsAmbiguous: Bool, possibleDuplicateOf: Int64?, items: [ReviewItem], ocrLines: [String],
        layout: OCRLayout?, corrections: [Correction]
    ) {
        self.receiptID = receiptID
        self.fileName = fileName
        self.imageFormat = imageFormat
        self.status = status
        self.validationOutcome = validationOutcome
        self.extractionSource = extractionSource
        self.fields = fields
        self.findings = findings
        self.reasons = reasons
        self.dateIsAmbiguous = dateIsAmbiguous
        self.possibleDuplicateOf = possibleDuplicateOf
        self.items = items
        self.ocrLines = ocrLines
        self.layout = layout
        self.corrections = corrections
    }

    /// The reading of one field.
    public func reading(_ field: CorrectableField) -> FieldReading? {
        fields.first { $0.field == field }
    }
}

/// A stored receipt image, served by receipt id only.
public struct ReceiptImage: Sendable, Equatable {
    /// An `ImageFormat` raw value (`jpeg`, `png`, …).
    public var format: String
    public var bytes: [UInt8]

    public init(format: String, bytes: [UInt8]) {
        self.format = format
        self.bytes = bytes
    }

    /// The HTTP content type of the format.
    public var contentType: String {
        switch format {
        case "jpeg": "image/jpeg"
        case "png": "image/png"
        case "tiff": "image/tiff"
        case "webp": "image/webp"
        case "bmp": "image/bmp"
        case "gif": "image/gif"
        default: "application/octet-stream"
        }
    }
}

/// A category rule as stored, with its id and where it came from.
public struct StoredCategoryRule: Sendable, Equatable {
    public var id: Int64
    public var rule: CategoryRule
    /// The receipt whose correction taught this rule, if one did.
    public var learnedFrom: Int64?

    public init(id: Int64, rule: CategoryRule, learnedFrom: Int64?) {
        self.id = id
        self.rule = rule
        self.learnedFrom = learnedFrom
    }
}

/// What categorization reads of one stored expense, to test rules against or re-categorize it.
public struct CategorizationSample: Sendable, Equatable {
    public var receiptID: Int64
    public var merchant: String?
    public var ocrText: String
    public var itemNames: [String]
    public var category: String
    public var itemCategories: [String]

    public init(
        receiptID: Int64, merchant: String?, ocrText: String, itemNames: [String], category: String,
        itemCategories: [String]
    ) {
        self.receiptID = receiptID
        self.merchant = merchant
        self.ocrText = ocrText
        self.itemNames = itemNames
        self.category = category
        self.itemCategories = itemCategories
    }
}

/// How `pipeline report` and the dashboard group spending.
public enum SpendingGrouping: String, Sendable, Codable, CaseIterable {
    case month, category, merchant
}

/// One line of a spending report: a group's expenses in one currency.
public struct SpendingRow: Sendable, Equatable, Codable {
    /// The month (`YYYY-MM`), category or merchant.
    public var key: String
    public var currency: String?
    public var expenses: Int
    public var total: Decimal

    public init(key: String, currency: String?, expenses: Int, total: Decimal) {
        self.key = key
        self.currency = currency
        self.expenses = expenses
        self.total = total
    }
}

/// One purchase of an item, for its price history.
public struct PricePoint: Sendable, Equatable, Codable {
    public var receiptID: Int64
    public var date: String?
    public var merchant: String?
    public var itemName: String
    public var quantity: Decimal?
    public var unitPrice: Decimal?
    public var totalPrice: Decimal?
    public var currency: String?

    public init(
        receiptID: Int64, date: String?, merchant: String?, itemName: String, quantity: Decimal?, unitPrice: Decimal?,
        totalPrice: Decimal?, currency: String?
    ) {
        self.receiptID = receiptID
        self.date = date
        self.merchant = merchant
        self.itemName = itemName
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.totalPrice = totalPrice
        self.currency = currency
    }
}

/// How often what people taught was used again (`pipeline stats`).
public struct LearningCounters: Sendable, Equatable, Codable {
    /// Merchant names remembered from corrections.
    public var merchantAliases: Int
    /// Later receipts whose merchant came from such an alias.
    public var merchantAliasUses: Int
    /// Category rules made from a corrected receipt.
    public var learnedRules: Int
    /// Expenses committed after such a rule was made whose merchant it matches.
    public var learnedRuleMatches: Int
    /// Corrections kept in the audit trail (decisions included).
    public var corrections: Int

    public init(
        merchantAliases: Int, merchantAliasUses: Int, learnedRules: Int, learnedRuleMatches: Int, corrections: Int
    ) {
        self.merchantAliases = merchantAliases
        self.merchantAliasUses = merchantAliasUses
        self.learnedRules = learnedRules
        self.learnedRuleMatches = learnedRuleMatches
        self.corrections = corrections
    }
}
