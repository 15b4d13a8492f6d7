import Foundation

/// Receipts whose job is dead (no expense was committed): the review page lists them with the reason and lets a
/// person retry or delete each, as `pipeline retry` and `pipeline show` do on the command line.
public protocol FailedReceiptStore: Sendable {
    /// Failed receipts, the latest failure first, at most `limit`.
    func failedReceipts(limit: Int) async throws -> [FailedReceipt]

    /// One failed receipt, nil when no receipt with that id has a dead job and no expense.
    func failedReceipt(_ receiptID: Int64) async throws -> FailedReceipt?

    /// Queues the receipt's dead job again (fresh attempts, its error history kept).
    /// - Returns: false when the receipt has no dead job (retried already, or never failed).
    func retryFailed(_ receiptID: Int64) async throws -> Bool

    /// Deletes a failed receipt with its stored image and jobs (never a receipt with an expense).
    /// - Returns: false when no receipt with that id has a dead job and no expense.
    func deleteFailed(_ receiptID: Int64) async throws -> Bool
}

/// A receipt whose job is dead, with why.
public struct FailedReceipt: Sendable, Equatable {
    public var receiptID: Int64
    public var fileName: String
    /// The last attempt's error as the worker wrote it: the stage, what was wrong and what to do
    /// (`decode: truncated.jpg: decode failed: …`).
    public var reason: String
    public var attempts: Int
    public var failedAt: Date?
    /// The stored file's format.
    public var format: ImageFormat
    /// The stage the last attempt failed at; nil when the job recorded none.
    public var stage: FailedStage?

    public init(
        receiptID: Int64, fileName: String, reason: String, attempts: Int, failedAt: Date?, format: ImageFormat,
        stage: FailedStage?
    ) {
        self.receiptID = receiptID
        self.fileName = fileName
        self.reason = reason
        self.attempts = attempts
        self.failedAt = failedAt
        self.format = format
        self.stage = stage
    }

    /// Why the page cannot show the stored file as an image, nil when a browser draws it. A file that failed to
    /// decode is damaged or no receipt at all (a browser draws it broken, if at all); PDF, HEIC and TIFF pages are
    /// shown as the pipeline drew them, and it keeps that drawing only with an expense.
    public var notDrawnBecause: String? {
        if stage == .pipeline(.decode) { return "the file could not be decoded (the reason is above)" }
        guard format.isShownByBrowsers else {
            return "a browser does not show \(format.displayName) files, and the pipeline keeps its drawing of the "
                + "page only once the receipt is read"
        }
        return nil
    }
}
