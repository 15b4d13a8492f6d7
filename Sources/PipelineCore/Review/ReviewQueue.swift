import Foundation

/// The review queue and what the receipt page reads: receipts needing review, one receipt, its image.
public protocol ReviewQueueStore: Sendable {
    /// Receipts needing review, oldest first, with the counts per reason.
    func queue(_ query: ReviewQueueQuery) async throws -> ReviewQueue

    /// The receipt after `receiptID` in queue order (wrapping to the oldest), nil when the queue is otherwise empty.
    func nextInQueue(after receiptID: Int64) async throws -> Int64?

    /// Everything about one receipt, nil when no receipt has that id.
    func receipt(_ receiptID: Int64) async throws -> ReceiptDetail?

    /// The stored image of a receipt, nil when no receipt has that id.
    func image(_ receiptID: Int64) async throws -> ReceiptImage?
}

/// Why a receipt waits for a person. `ReviewPolicy` decides them when the expense is committed, and the commit stores
/// them (these raw values) in `expenses.review_reasons`, which the queue filters and counts by. `needs_review` ⇔ at
/// least one reason.
public enum ReviewReason: String, Sendable, Codable, CaseIterable {
    /// The amounts do not add up.
    case unbalanced
    /// The total is missing, or nothing printed ties it down, so nothing could be checked.
    case incomplete
    /// An earlier expense may be the same receipt (`duplicateGrounds`).
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
    /// More pages were read as one receipt than one receipt may have (`ReceiptPageGrouping`): always held.
    case tooManyPages = "too_many_pages"
    /// A page of a receipt joined from several pages prints a total that is not the receipt's (`PageTotals`): it
    /// may be another receipt. Always held.
    case pageTotalDiffers = "page_total_differs"

    /// The reason that a key field is not trusted.
    public static func notSure(_ field: KeyField) -> ReviewReason {
        switch field {
        case .merchant: .merchantNotSure
        case .date: .dateNotSure
        case .total: .totalNotSure
        }
    }

    /// What makes an earlier expense a possible duplicate, in plain words (the commit's lookup decides it:
    /// `ExpenseStore.commit`, `docs/review.md` "Duplicates").
    public static let duplicateGrounds =
        "the same merchant, date and total, or a similar-looking page with the same total or date"

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
        case .tooManyPages: "too many pages"
        case .pageTotalDiffers: "a page's total differs"
        }
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
