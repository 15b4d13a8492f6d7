/// Everything the review page and the review commands work through, one port per concern: the queue and one
/// receipt (`ReviewQueueStore`), corrections with their audit trail and decisions (`CorrectionStore`), category
/// rules and re-categorization (`CategorizationStore`), spending reports (`SpendingReportStore`) and receipts whose
/// job failed (`FailedReceiptStore`). Receipts are named by receipt id throughout. A caller that needs one concern
/// takes that port alone.
public typealias ReviewStore = ReviewQueueStore & CorrectionStore & CategorizationStore & SpendingReportStore
    & FailedReceiptStore

/// An error of a store or intake that means it cannot be reached right now (the database down or restarting, every
/// connection busy): a page answers 503 and asks to try again in a moment; the details go to the server's log only.
public protocol StoreUnavailableError: Error {
    /// Whether this error is such an unavailability (not a refusal or a fault of the request).
    var meansStoreUnavailable: Bool { get }
}
