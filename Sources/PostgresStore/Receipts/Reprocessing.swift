import Foundation
import PipelineCore

/// `pipeline reprocess`: which receipts to re-run, and their jobs on the queue. The worker runs a `reprocess` job
/// like any other and rewrites the receipt's expense in place (`ExpenseStore.commit(replacing:)`).
public enum Reprocessing {
    /// What a request queued.
    public struct Queued: Sendable, Equatable {
        /// Receipts given a job (and a new LLM call budget), ascending.
        public var queued: [Int64]
        /// Receipts left alone because a job of theirs is ready or running already.
        public var alreadyQueued: [Int64]
    }

    /// Which of `ids` are stored receipts.
    public static func existing(_ ids: [Int64], in connection: isolated PostgresConnection) throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        let rows = try connection.query("SELECT id FROM receipts WHERE id = ANY($1::bigint[])", [array(ids)])
        return Set(try rows.compactMap { try $0.int("id").map(Int64.init) })
    }

    /// Receipts whose expense has `status` (any when nil) and that were ingested since `start` (any when nil),
    /// ascending; with a status, receipts without an expense are left out.
    public static func receipts(
        status: ExpenseStatus?, ingestedSince start: Date?, in connection: isolated PostgresConnection
    ) throws -> [Int64] {
        let rows = try connection.query(
            """
            SELECT r.id FROM receipts r LEFT JOIN expenses e ON e.receipt_id = r.id
            WHERE ($1::text IS NULL OR e.status = $1) AND ($2::timestamptz IS NULL OR r.ingested_at >= $2)
            ORDER BY r.id
            """, [status?.rawValue, start])
        return try rows.compactMap { try $0.int("id").map(Int64.init) }
    }

    /// Queues one `reprocess` job per receipt and gives each a new LLM call budget (`LLMCallStore.resetBudget`),
    /// in the caller's transaction; a receipt with a ready or running job is skipped (that job will run it).
    public static func enqueue(_ ids: [Int64], maxAttempts: Int, in connection: isolated PostgresConnection) throws
        -> Queued
    {
        guard !ids.isEmpty else { return Queued(queued: [], alreadyQueued: []) }
        let busy = Set(
            try connection.query(
                """
                SELECT DISTINCT receipt_id FROM jobs
                WHERE receipt_id = ANY($1::bigint[]) AND state IN ('ready', 'running')
                """, [array(ids)]
            ).compactMap { try $0.int("receipt_id").map(Int64.init) })
        let queued = Array(Set(ids).subtracting(busy)).sorted()
        try LLMCallStore.resetBudget(receiptIDs: queued, in: connection)
        let stamp = Int64(Date().timeIntervalSince1970 * 1000)
        try PostgresWorkQueue.enqueue(
            queued.map {
                NewJob(key: "reprocess:\($0):\(stamp)", receiptID: $0, kind: .reprocess, maxAttempts: maxAttempts)
            }, in: connection)
        return Queued(queued: queued, alreadyQueued: busy.sorted())
    }

    private static func array(_ ids: [Int64]) -> String {
        "{" + ids.map(String.init).joined(separator: ",") + "}"
    }
}
