import Foundation
import PipelineCore

/// Writes and reads expenses, their items and stage timings.
public enum ExpenseStore {
    /// Inserts the expense, its items and the attempt's stage timings. At most one expense per receipt: a second
    /// commit for the same receipt changes nothing, unless `replacing` (`pipeline reprocess`), which rewrites the
    /// expense and its items in place. A person's corrections, decision and items are put back over either, and an accepted
    /// expense teaches its merchant (`KeptCorrections`). Text the
    /// database refuses is replaced first (`ExpenseRecord.storable()`), so no value fails the commit.
    ///
    /// The status and review reasons are `ReviewPolicy`'s, decided here in the transaction with the duplicate
    /// lookup: an earlier expense `PossibleDuplicate` takes for the same receipt makes this one a possible duplicate,
    /// which waits for a person (both are kept). Commits take their turn for that lookup, so two copies of one
    /// receipt committed at once still find each other.
    /// - Returns: the expense id, or nil when the receipt already had one and `replacing` is false.
    @discardableResult
    public static func commit(
        _ record: ExpenseRecord, jobID: Int64, attempt: Int, replacing: Bool = false,
        in connection: isolated PostgresConnection
    )
        throws -> Int64?
    {
        let record = record.storable()
        let draft = record.result.draft
        let date = draft.date.map { String(format: "%04d-%02d-%02d", $0.value.year, $0.value.month, $0.value.day) }
        // Every commit waits on this lock: a worker cut off from the server in the middle of its commit must not
        // hold it until TCP gives up (hours). The rest of the transaction is statements sent back to back, so a
        // session idle that long is gone; the server ends it, and with it the lock and the lease's claim.
        try TransactionLimits.apply(in: connection)
        try connection.query("SELECT pg_advisory_xact_lock($1)", [duplicateLookupLock])
        // The candidates: the same date (any, when none was read) and total, or a page near enough;
        // `PossibleDuplicate` decides.
        let earlier = try connection.query(
            """
            SELECT id, merchant, to_char(expense_date, 'YYYY-MM-DD') AS expense_date, total, page_fingerprint
            FROM expenses
            WHERE receipt_id <> $1
              AND ((expense_date = $2::date OR $2::date IS NULL) AND total = $3::numeric
                   OR bit_count((page_fingerprint # $4::bigint)::bit(64)) <= $5)
            """,
            [
                record.receiptID, date, draft.total?.value, record.pageFingerprint?.storedValue,
                PageFingerprint.similarPageDistance,
            ]
        ).map { row throws(PostgresError) in
            PossibleDuplicate.Earlier(
                id: try row.requiredID("id"), merchant: try row.string("merchant"),
                date: try row.string("expense_date"), total: try row.decimal("total"),
                page: try row.int("page_fingerprint").map { PageFingerprint(storedValue: Int64($0)) })
        }
        let duplicateID = PossibleDuplicate.first(of: draft, page: record.pageFingerprint, among: earlier)
        let review = ReviewPolicy.decide(record, possibleDuplicateOf: duplicateID)
        let rows = try connection.query(
            """
            INSERT INTO expenses (\(expenseColumns.joined(separator: ", ")))
            VALUES ($1, $2, $3::date, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17::jsonb,
                    $18::jsonb, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28::jsonb, $29, $30, $31::text[],
                    $32, $33, $34, clock_timestamp())
            ON CONFLICT (receipt_id) \(replacing ? replaceExpense : "DO NOTHING")
            RETURNING id
            """,
            [
                record.receiptID, draft.merchant?.value, date, draft.date?.value.isAmbiguous ?? false,
                draft.currency?.value, draft.subtotal?.value, draft.tax?.value, draft.tip?.value, draft.fees?.value,
                draft.discounts?.value, draft.total?.value, record.categorization.expense.rawValue,
                draft.paymentMethod?.value.rawValue, record.confidence, review.status.rawValue,
                record.result.outcome.rawValue, try SQLLiterals.json(review.findings, column: "findings"),
                try SQLLiterals.json(
                    FieldSources(draft, trust: review.acceptance.fields), column: "field_sources"),
                record.extractionSource.rawValue, record.ocrText, record.ocrConfidence, record.llmUsage?.model,
                record.llmUsage?.calls ?? 0, record.llmUsage?.inputTokens ?? 0, record.llmUsage?.outputTokens ?? 0,
                duplicateID, record.claimedAt,
                try record.ocrLayout.map { try SQLLiterals.json($0, column: "ocr_layout") }, record.pageSource.rawValue,
                record.categorization.source.rawValue, SQLLiterals.array(review.reasons.map(\.rawValue)),
                record.pageFingerprint?.storedValue, draft.brand?.value,
                draft.merchant.flatMap { PostgresCategoryHistory.merchantKey($0.value) },
            ])
        guard let id = try rows.first?.int("id").map(Int64.init) else { return nil }
        try connection.query(
            "UPDATE expenses SET printed_layout = $2::jsonb WHERE id = $1",
            [
                id,
                MerchantLayout.printed(
                    ocrText: record.ocrText, total: draft.total?.value, totalLines: draft.total?.sourceLines ?? [],
                    date: draft.date?.value, dateLines: draft.date?.sourceLines ?? []
                ).storedJSON,
            ])
        if replacing { try connection.query("DELETE FROM expense_items WHERE expense_id = $1", [id]) }
        if let rendered = record.renderedPage {
            try connection.query(
                "UPDATE receipts SET rendered_page = $2 WHERE id = $1", [record.receiptID, [UInt8](rendered)])
        }
        if let alias = record.learnedMerchant?.id {
            try connection.query(
                "UPDATE merchant_aliases SET uses = uses + 1, last_used_at = now() WHERE id = $1", [alias])
        }
        for (position, item) in draft.items.enumerated() {
            let category =
                position < record.categorization.items.count
                ? record.categorization.items[position].rawValue : ItemCategory.other.rawValue
            try connection.query(
                """
                INSERT INTO expense_items (expense_id, position, name, quantity, unit_price, total_price, category)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                """, [id, position + 1, item.name, item.quantity, item.unitPrice, item.totalPrice, category])
        }
        try KeptCorrections.restore(record.receiptID, in: connection)
        try insertTimings(record.timings, receiptID: record.receiptID, jobID: jobID, attempt: attempt, in: connection)
        return id
    }

    /// Records the stage timings of an attempt (also of failed attempts, outside any expense).
    public static func insertTimings(
        _ timings: [StageTiming], receiptID: Int64?, jobID: Int64, attempt: Int,
        in connection: isolated PostgresConnection
    ) throws {
        for timing in timings {
            try connection.query(
                """
                INSERT INTO stage_timings (receipt_id, job_id, stage, attempt, started_at, duration_ms, outcome, detail)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                """,
                [
                    receiptID, jobID, timing.stage.rawValue, attempt, timing.startedAt, timing.milliseconds,
                    timing.outcome.rawValue, timing.detail,
                ])
        }
    }

    /// The columns a commit writes, in the order of its parameters.
    private static let expenseColumns = [
        "receipt_id", "merchant", "expense_date", "date_is_ambiguous", "currency", "subtotal", "tax", "tip", "fees",
        "discounts", "total", "category", "payment_method", "confidence", "status", "validation_outcome", "findings",
        "field_sources", "extraction_source", "ocr_text", "ocr_confidence", "llm_model", "llm_calls",
        "llm_input_tokens", "llm_output_tokens", "possible_duplicate_of", "claimed_at", "ocr_layout", "page_source",
        "category_source", "review_reasons", "page_fingerprint", "brand", "merchant_key", "committed_at",
    ]

    /// A reprocess's conflict clause: every column but the receipt takes the new reading.
    private static let replaceExpense =
        "DO UPDATE SET ("
        + expenseColumns.dropFirst().joined(separator: ", ") + ") = ("
        + expenseColumns.dropFirst().map { "EXCLUDED.\($0)" }.joined(separator: ", ") + ")"

    /// The advisory lock commits take, for the rest of their transaction, around the duplicate lookup.
    static let duplicateLookupLock: Int64 = 0x7265_7669_6577  // "review"
}
