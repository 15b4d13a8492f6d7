import Foundation
import PipelineCore

/// Failed receipts: a dead job and no expense. Retry re-queues the dead job as `pipeline retry` does; delete removes
/// the receipt, and with it (`ON DELETE CASCADE`) its jobs, stage timings and LLM calls.
extension PostgresReviewStore {
    /// Receipts with a dead job and no expense, one row each (its latest dead job).
    private static let failedSelect = """
        SELECT DISTINCT ON (r.id) r.id, r.original_name, r.format, j.last_error, j.attempts, j.finished_at,
               j.errors -> -1 ->> 'stage' AS stage
        FROM receipts r JOIN jobs j ON j.receipt_id = r.id AND j.state = 'dead'
        WHERE NOT EXISTS (SELECT 1 FROM expenses e WHERE e.receipt_id = r.id)
        """

    public func failedReceipts(limit: Int) async throws -> [FailedReceipt] {
        let rows = try await statement(
            """
            SELECT * FROM (\(Self.failedSelect) ORDER BY r.id, j.id DESC) failed
            ORDER BY finished_at DESC NULLS LAST, id DESC LIMIT $1
            """, [limit])
        return try rows.map(Self.failedReceipt)
    }

    public func failedReceipt(_ receiptID: Int64) async throws -> FailedReceipt? {
        try await statement("\(Self.failedSelect) AND r.id = $1 ORDER BY r.id, j.id DESC", [receiptID])
            .first.map(Self.failedReceipt)
    }

    public func retryFailed(_ receiptID: Int64) async throws -> Bool {
        try await transaction { connection in
            let dead = try PostgresWorkQueue.jobStates(ofReceipts: [receiptID], in: connection)[receiptID, default: []]
                .filter { $0.state == "dead" }.map(\.job)
            return try !dead.isEmpty && PostgresWorkQueue.requeueDead(dead, in: connection) > 0
        }
    }

    public func deleteFailed(_ receiptID: Int64) async throws -> Bool {
        try await statement(
            """
            DELETE FROM receipts r WHERE r.id = $1
            AND EXISTS (SELECT 1 FROM jobs j WHERE j.receipt_id = r.id AND j.state = 'dead')
            AND NOT EXISTS (SELECT 1 FROM expenses e WHERE e.receipt_id = r.id)
            """, [receiptID]
        ).affectedRows > 0
    }

    private static func failedReceipt(_ row: PostgresRow) throws -> FailedReceipt {
        FailedReceipt(
            receiptID: Int64(try row.int("id") ?? 0), fileName: try row.string("original_name") ?? "",
            reason: try row.string("last_error") ?? "no error was recorded", attempts: try row.int("attempts") ?? 0,
            failedAt: try row.date("finished_at"), format: try row.requiredValue("format", as: ImageFormat.self),
            stage: try row.string("stage").flatMap(FailedStage.init(rawValue:)))
    }
}
