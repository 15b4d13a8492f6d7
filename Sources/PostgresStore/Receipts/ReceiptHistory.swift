import Foundation

/// Everything stored about one receipt, as `pipeline show` prints it: the receipt, its jobs, its expense with items,
/// its corrections and its stage timings. Each read returns the rows with the columns named in its documentation.
public enum ReceiptHistory {
    /// Up to two receipts named by `reference`: an id, or (when `isHashPrefix`) the start of a SHA-256.
    /// Columns: `id`, `sha256`, `original_name`, `original_path`, `format`, `byte_count`, `ingested_at`, and the
    /// e-mail it came with (NULL otherwise): `sender`, `subject`, `sent_at`.
    public static func receipts(matching reference: String, isHashPrefix: Bool, in connection: PostgresConnection)
        async throws -> PostgresRows
    {
        try await connection.query(
            """
            SELECT r.id, r.sha256, r.original_name, r.original_path, r.format, r.byte_count, r.ingested_at,
                   m.sender, m.subject, m.sent_at::text AS sent_at
            FROM receipts r LEFT JOIN messages m ON m.id = r.message_id
            WHERE \(isHashPrefix ? "r.sha256 LIKE $1 || '%'" : "r.id = $1::bigint") ORDER BY r.id LIMIT 2
            """, [reference.lowercased()])
    }

    /// The receipt's jobs, oldest first. Columns: `id`, `state`, `attempts`, `max_attempts`, `run_at`, `last_error`,
    /// `errors` (the JSON history as text).
    public static func jobs(ofReceipt id: Int, in connection: PostgresConnection) async throws -> PostgresRows {
        try await connection.query(
            """
            SELECT id, state, attempts, max_attempts, run_at, last_error, errors::text AS errors FROM jobs
            WHERE receipt_id = $1 ORDER BY id
            """, [id])
    }

    /// The receipt's expense (no row while it has none). Columns: `id`, `merchant`, `date`, `date_is_ambiguous`,
    /// `currency`, the amounts as exact decimal text (`subtotal`, `tax`, `tip`, `fees`, `discounts`, `total`),
    /// `category`, `payment_method`, `confidence`, `status`, `validation_outcome`, `findings`, `extraction_source`,
    /// `possible_duplicate_of` (the receipt id of the expense it may repeat), `llm_model`, `llm_calls`, `llm_input_tokens`, `llm_output_tokens`, `page_source`,
    /// `reasons` (the review reasons, comma separated), `field_sources` (JSON: each field's lines and confidence, a key
    /// field's `trust` and `trustThreshold`).
    public static func expense(ofReceipt id: Int, in connection: PostgresConnection) async throws -> PostgresRows {
        try await connection.query(
            """
            SELECT id, merchant, expense_date::text AS date, date_is_ambiguous, currency, money_text(subtotal) AS subtotal,
                   money_text(tax) AS tax, money_text(tip) AS tip, money_text(fees) AS fees, money_text(discounts) AS discounts,
                   money_text(total) AS total, category, payment_method, confidence::text AS confidence, status,
                   validation_outcome, findings::text AS findings, extraction_source,
                   (SELECT d.receipt_id FROM expenses d WHERE d.id = e.possible_duplicate_of) AS possible_duplicate_of,
                   llm_model, llm_calls, llm_input_tokens, llm_output_tokens, page_source,
                   array_to_string(review_reasons, ', ') AS reasons, field_sources::text AS field_sources
            FROM expenses e WHERE receipt_id = $1
            """, [id])
    }

    /// The expense's line items in order. Columns: `position`, `name`, `quantity`, `unit_price`, `total_price`
    /// (exact decimal text), `category`.
    public static func items(ofExpense id: Int, in connection: PostgresConnection) async throws -> PostgresRows {
        try await connection.query(
            """
            SELECT position, name, quantity::text AS quantity, money_text(unit_price) AS unit_price,
                   money_text(total_price) AS total_price, category FROM expense_items WHERE expense_id = $1 ORDER BY position
            """, [id])
    }

    /// The receipt's corrections, oldest first. Columns: `field`, `machine_value`, `person_value`, `corrected_by`,
    /// `corrected_at`.
    public static func corrections(ofReceipt id: Int, in connection: PostgresConnection) async throws -> PostgresRows {
        try await connection.query(
            """
            SELECT field, machine_value, person_value, corrected_by, corrected_at::text AS corrected_at
            FROM corrections WHERE receipt_id = $1 ORDER BY id
            """, [id])
    }

    /// The receipt's stage timings by attempt, in the order they ran. Columns: `attempt`, `stage`, `ms` (rounded to
    /// 0.1), `outcome`, `detail`.
    public static func stageTimings(ofReceipt id: Int, in connection: PostgresConnection) async throws
        -> PostgresRows
    {
        try await connection.query(
            """
            SELECT attempt, stage, round(duration_ms::numeric, 1)::text AS ms, outcome, detail FROM stage_timings
            WHERE receipt_id = $1 ORDER BY attempt, started_at, id
            """, [id])
    }
}
