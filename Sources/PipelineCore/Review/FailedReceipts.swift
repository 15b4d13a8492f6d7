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

    public init(receiptID: Int64, fileName: String, reason: String, attempts: Int, failedAt: Date?) {
        self.receiptID = receiptID
        self.fileName = fileName
        self.reason = reason
        self.attempts = attempts
        self.failedAt = failedAt
    }
}
