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

    /// Queues one `reprocess` job per receipt and, with `newLLMBudget`, gives each a new LLM call budget
    /// (`LLMCallStore.resetBudget`), in the caller's transaction; a receipt with a ready or running job is skipped
    /// (that job will run it).
    public static func enqueue(
        _ ids: [Int64], maxAttempts: Int, newLLMBudget: Bool = true, in connection: isolated PostgresConnection
    ) throws -> Queued {
        guard !ids.isEmpty else { return Queued(queued: [], alreadyQueued: []) }
        let busy = Set(
            try connection.query(
                """
                SELECT DISTINCT receipt_id FROM jobs
                WHERE receipt_id = ANY($1::bigint[]) AND state IN ('ready', 'running')
                """, [array(ids)]
            ).compactMap { try $0.int("receipt_id").map(Int64.init) })
        let queued = Array(Set(ids).subtracting(busy)).sorted()
        if newLLMBudget { try LLMCallStore.resetBudget(receiptIDs: queued, in: connection) }
        let stamp = Int64(Date().timeIntervalSince1970 * 1000)
        try PostgresWorkQueue.enqueue(
            queued.map {
                NewJob(key: "reprocess:\($0):\(stamp)", receiptID: $0, kind: .reprocess, maxAttempts: maxAttempts)
            }, in: connection)
        return Queued(queued: queued, alreadyQueued: busy.sorted())
    }

    /// How many receipts waiting for review one confirmation weighs, the latest first.
    static let rereadingLimit = 2000
    /// How much of each one's page text is read: its top lines, where a merchant is printed.
    static let topTextLength = 1000

    /// After a person confirmed receipt `receiptID` (accepted it, or corrected its merchant: `merchantNamed`), in
    /// that transaction: when the confirmation teaches something (`HeldReceiptRereading.teaches`), queues a
    /// `reprocess` job for each receipt waiting for review that `HeldReceiptRereading` picks, so the worker decides
    /// them again with what it taught; their LLM call budget stays as it is.
    /// - Returns: the receipts queued.
    static func rereadHeld(
        confirmedBy receiptID: Int64, merchantNamed: Bool, in connection: isolated PostgresConnection
    ) throws -> [Int64] {
        guard
            let confirmed = try connection.query(
                """
                SELECT status, merchant, ocr_text, field_sources::text AS field_sources
                FROM expenses WHERE receipt_id = $1
                """, [receiptID]
            ).first,
            try confirmed.requiredValue("status", as: ExpenseStatus.self) != .rejected
        else { return [] }
        let merchant = try confirmed.string("merchant")
        let accepted =
            try connection.query(
                "SELECT count(*) AS accepted FROM expenses WHERE status = 'accepted' AND merchant = $1", [merchant]
            ).first?.requiredInt("accepted") ?? 0
        guard HeldReceiptRereading.teaches(merchantNamed: merchantNamed, accepted: accepted) else { return [] }
        let taught = [merchant, try KeptCorrections.headerKey(of: confirmed)].compactMap { $0 }
        let held = try connection.query(
            """
            SELECT e.receipt_id, e.merchant, left(e.ocr_text, $3) AS top_text,
                   EXISTS (SELECT 1 FROM corrections c WHERE c.receipt_id = e.receipt_id) AS touched,
                   r.llm_calls_used > 0 OR r.llm_failure IS NOT NULL AS called_model
            FROM expenses e JOIN receipts r ON r.id = e.receipt_id
            WHERE e.status = 'needs_review' AND e.receipt_id <> $1
            ORDER BY e.receipt_id DESC LIMIT $2
            """, [receiptID, rereadingLimit, topTextLength]
        ).map { row in
            HeldReceiptRereading.Held(
                receiptID: Int64(try row.requiredInt("receipt_id")), merchant: try row.string("merchant"),
                ocrText: try row.string("top_text") ?? "",
                touchedByPerson: try row.bool("touched") ?? true, calledModel: try row.bool("called_model") ?? true)
        }
        let ids = HeldReceiptRereading.receipts(readingLike: taught, among: held)
        return try enqueue(ids, maxAttempts: NewJob.defaultMaxAttempts, newLLMBudget: false, in: connection).queued
    }

    private static func array(_ ids: [Int64]) -> String {
        "{" + ids.map(String.init).joined(separator: ",") + "}"
    }
}
