import Foundation

/// The port the review page and the review commands work through: the queue, one receipt, corrections with their
/// audit trail, decisions, category rules and spending reports. Receipts are named by receipt id throughout.
///
/// Corrections are binding: an implementation must keep a corrected field's person value on every later write of
/// the expense (a reprocess, a re-categorization), and remember a corrected merchant for later receipts.
public protocol ReviewStore: Sendable {
    /// Receipts needing review, oldest first, with the counts per reason.
    func queue(_ query: ReviewQueueQuery) async throws -> ReviewQueue

    /// The receipt after `receiptID` in queue order (wrapping to the oldest), nil when the queue is otherwise empty.
    func nextInQueue(after receiptID: Int64) async throws -> Int64?

    /// Everything about one receipt, nil when no receipt has that id.
    func receipt(_ receiptID: Int64) async throws -> ReceiptDetail?

    /// The stored image of a receipt, nil when no receipt has that id.
    func image(_ receiptID: Int64) async throws -> ReceiptImage?

    /// Applies corrections (already normalized by `FieldValue`), line item edits and optionally a decision, in one
    /// transaction; fields and items whose value does not change are left out of the audit trail. Once a person
    /// edited a receipt's items, their list is the receipt's list on every later write of the expense.
    /// - Returns: the corrections recorded.
    /// - Throws: `ReviewError` when the receipt does not exist or has no expense yet, or an item edit names an item
    ///   the receipt does not have.
    @discardableResult
    func review(
        _ receiptID: Int64, corrections: [CorrectableField: String?], items: [ItemEdit], decision: ReviewDecision?,
        by person: String
    ) async throws -> [Correction]

    /// Every category rule, lowest priority number first.
    func categoryRules() async throws -> [StoredCategoryRule]

    /// Adds a rule (`id` nil) or replaces rule `id`; a rule with the same target and pattern is replaced.
    /// - Returns: the rule's id.
    /// - Throws: `ReviewError` for an unknown category (listing the known ones) or an unknown rule id.
    @discardableResult
    func saveRule(_ rule: CategoryRule, id: Int64?, learnedFrom receiptID: Int64?, by person: String) async throws
        -> Int64

    /// Deletes a rule. - Returns: false when no rule has that id.
    @discardableResult
    func removeRule(_ id: Int64) async throws -> Bool

    /// What categorization reads of stored expenses (newest first, rejected ones left out).
    func categorizationSamples(since: Date?, limit: Int) async throws -> [CategorizationSample]

    /// Stores new categories for expenses (corrected categories stay as the person set them).
    /// - Returns: how many expenses changed.
    @discardableResult
    func applyCategories(_ changes: [CategoryChange]) async throws -> Int

    /// Spending of accepted expenses (pending and rejected ones left out), grouped; `month` is `YYYY-MM`.
    func spending(by grouping: SpendingGrouping, month: String?) async throws -> [SpendingRow]

    /// Every purchase of items whose name contains `item` (case-insensitive), oldest first.
    func priceHistory(item: String, limit: Int) async throws -> [PricePoint]

    /// How often learned aliases and rules were used.
    func learningCounters() async throws -> LearningCounters
}

extension ReviewStore {
    /// Applies corrections and optionally a decision, without item edits.
    @discardableResult
    public func review(
        _ receiptID: Int64, corrections: [CorrectableField: String?], decision: ReviewDecision?, by person: String
    ) async throws -> [Correction] {
        try await review(receiptID, corrections: corrections, items: [], decision: decision, by: person)
    }
}
