import Foundation
import PipelineCore

/// The statements a command runs in one transaction (`PostgresSession.transaction`), on the transaction's
/// connection. Not `Sendable`: it is only good inside the body it was handed to, which runs on that connection's
/// thread (each call checks that it still does).
public struct PostgresTransaction {
    private let connection: PostgresConnection

    init(_ connection: isolated PostgresConnection) {
        self.connection = connection
    }

    /// Which of `ids` are stored receipts (`Reprocessing.existing`).
    public func existingReceipts(_ ids: [Int64]) throws -> Set<Int64> {
        try connection.assumeIsolated { try Reprocessing.existing(ids, in: $0) }
    }

    /// Receipts whose expense has `status` and that were ingested since `start`, ascending (`Reprocessing.receipts`).
    public func receipts(status: ExpenseStatus?, ingestedSince start: Date?) throws -> [Int64] {
        try connection.assumeIsolated { try Reprocessing.receipts(status: status, ingestedSince: start, in: $0) }
    }

    /// Queues one `reprocess` job per receipt with a new LLM call budget (`Reprocessing.enqueue`).
    public func enqueueReprocessing(_ ids: [Int64], maxAttempts: Int) throws -> Reprocessing.Queued {
        try connection.assumeIsolated { try Reprocessing.enqueue(ids, maxAttempts: maxAttempts, in: $0) }
    }

    /// The states of the jobs of each given receipt that has any (`PostgresWorkQueue.jobStates`).
    public func jobStates(ofReceipts receiptIDs: [Int64]) throws -> [Int64: [(job: Int64, state: String)]] {
        try connection.assumeIsolated { try PostgresWorkQueue.jobStates(ofReceipts: receiptIDs, in: $0) }
    }

    /// Puts dead jobs back to ready with fresh attempts; nil means every dead job (`PostgresWorkQueue.requeueDead`).
    /// - Returns: how many were requeued.
    public func requeueDead(_ ids: [Int64]?) throws -> Int {
        try connection.assumeIsolated { try PostgresWorkQueue.requeueDead(ids, in: $0) }
    }
}
