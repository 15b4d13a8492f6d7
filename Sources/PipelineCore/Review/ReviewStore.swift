/// Everything the review page and the review commands work through, one port per concern: the queue and one
/// receipt (`ReviewQueueStore`), corrections with their audit trail and decisions (`CorrectionStore`), category
/// rules and re-categorization (`CategorizationStore`), and spending reports (`SpendingReportStore`). Receipts are
/// named by receipt id throughout. A caller that needs one concern takes that port alone.
public typealias ReviewStore = ReviewQueueStore & CorrectionStore & CategorizationStore & SpendingReportStore
