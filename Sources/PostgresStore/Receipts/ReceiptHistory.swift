import Foundation
import PipelineCore

/// Everything stored about one receipt, as `pipeline show` prints it: the receipt, its jobs, its expense with items,
/// its corrections and its stage timings, each as a typed value. Amounts are exact decimal text and timestamps are
/// as PostgreSQL prints them, since they are read to be shown.
public enum ReceiptHistory {
    /// A stored receipt, with the e-mail it came with.
    public struct Receipt: Sendable, Equatable {
        public var id: Int64
        public var sha256: String
        public var originalPath: String
        public var format: ImageFormat
        public var byteCount: Int
        public var ingestedAt: String
        public var email: Email?
    }

    /// The e-mail a receipt was an attachment or the body of.
    public struct Email: Sendable, Equatable {
        public var sender: String
        public var subject: String?
        public var sentAt: String?
    }

    /// One of a receipt's jobs.
    public struct Job: Sendable, Equatable {
        public var id: Int64
        public var state: JobState
        public var attempts: Int
        public var maxAttempts: Int
        public var runAt: String
        public var lastError: String?
        /// The error history as stored (JSON text).
        public var errors: String
    }

    /// A receipt's expense as committed (with a person's corrections).
    public struct Expense: Sendable, Equatable {
        public var id: Int64
        public var status: ExpenseStatus
        public var validationOutcome: ReconciliationOutcome
        public var extractionSource: ExtractionSource
        public var pageSource: PageSource
        public var confidence: String?
        public var merchant: String?
        public var date: String?
        public var dateIsAmbiguous: Bool
        public var currency: String?
        public var subtotal: String?
        public var discounts: String?
        public var fees: String?
        public var tax: String?
        public var tip: String?
        public var total: String?
        public var category: String?
        public var paymentMethod: String?
        public var fieldSources: FieldSources?
        /// The receipt id of the expense it may repeat.
        public var possibleDuplicateOf: Int64?
        public var reasons: [ReviewReason]
        public var findings: [Finding]
        public var llmModel: String?
        public var llmCalls: Int
        public var llmInputTokens: Int
        public var llmOutputTokens: Int
    }

    /// One correction of the audit trail.
    public struct Correction: Sendable, Equatable {
        public var field: CorrectionField
        public var machineValue: String?
        public var personValue: String?
        public var correctedBy: String
        public var correctedAt: String
    }

    /// One stage of one attempt.
    public struct StageTiming: Sendable, Equatable {
        public var attempt: Int
        public var stage: Stage
        /// Milliseconds, rounded to 0.1.
        public var milliseconds: String
        public var outcome: StageOutcome
        public var detail: String?
    }

    /// One receipt with everything stored about it.
    public struct Record: Sendable {
        public var receipt: Receipt
        /// Oldest first.
        public var jobs: [Job]
        /// Nil while it has none.
        public var expense: Expense?
        public var items: [ReviewItem]
        /// Oldest first.
        public var corrections: [Correction]
        /// The receipt as the review page sees it (its amounts and items as corrected), when it has corrections and
        /// an expense.
        public var correctedDetail: ReceiptDetail?
        /// By attempt, in the order they ran.
        public var stageTimings: [StageTiming]
    }

    /// The first receipt `reference` names, with everything stored about it; nil when none matches.
    /// - Parameters:
    ///   - reference: a receipt id, or (when `isHashPrefix`) the start of a SHA-256.
    ///   - database: a command's connection, or a pool.
    public static func record(matching reference: String, isHashPrefix: Bool, from database: any PostgresSessions)
        async throws -> Record?
    {
        try await database.withConnection { connection in
            guard
                let receipt = try await receipts(matching: reference, isHashPrefix: isHashPrefix, in: connection).first
            else { return nil }
            let expense = try await expense(ofReceipt: receipt.id, in: connection)
            let corrections = try await corrections(ofReceipt: receipt.id, in: connection)
            var correctedDetail: ReceiptDetail?
            if !corrections.isEmpty {
                do {
                    correctedDetail = try await PostgresReviewStore(database: connection).receipt(receipt.id)
                } catch let error as ReviewError where error.code == .noExpense {
                    correctedDetail = nil
                }
            }
            var items: [ReviewItem] = []
            if let expense { items = try await self.items(ofExpense: expense.id, in: connection) }
            return Record(
                receipt: receipt, jobs: try await jobs(ofReceipt: receipt.id, in: connection), expense: expense,
                items: items, corrections: corrections, correctedDetail: correctedDetail,
                stageTimings: try await stageTimings(ofReceipt: receipt.id, in: connection))
        }
    }

    /// Up to two receipts named by `reference`: an id, or (when `isHashPrefix`) the start of a SHA-256.
    public static func receipts(matching reference: String, isHashPrefix: Bool, in connection: PostgresConnection)
        async throws -> [Receipt]
    {
        try await connection.query(
            """
            SELECT r.id, r.sha256, r.original_path, r.format, r.byte_count, r.ingested_at::text AS ingested_at,
                   m.sender, m.subject, m.sent_at::text AS sent_at
            FROM receipts r LEFT JOIN messages m ON m.id = r.message_id
            WHERE \(isHashPrefix ? "r.sha256 LIKE $1 || '%'" : "r.id = $1::bigint") ORDER BY r.id LIMIT 2
            """, [reference.lowercased()]
        ).map { row in
            Receipt(
                id: try row.requiredID("id"), sha256: try row.requiredString("sha256"),
                originalPath: try row.requiredString("original_path"),
                format: try row.requiredValue("format", as: ImageFormat.self),
                byteCount: try row.requiredInt("byte_count"), ingestedAt: try row.requiredString("ingested_at"),
                email: try row.string("sender").map { sender in
                    Email(sender: sender, subject: try row.string("subject"), sentAt: try row.string("sent_at"))
                })
        }
    }

    /// The receipt's jobs, oldest first.
    public static func jobs(ofReceipt id: Int64, in connection: PostgresConnection) async throws -> [Job] {
        try await connection.query(
            """
            SELECT id, state, attempts, max_attempts, run_at::text AS run_at, last_error, errors::text AS errors
            FROM jobs WHERE receipt_id = $1 ORDER BY id
            """, [id]
        ).map { row in
            Job(
                id: try row.requiredID("id"), state: try row.requiredValue("state", as: JobState.self),
                attempts: try row.requiredInt("attempts"), maxAttempts: try row.requiredInt("max_attempts"),
                runAt: try row.requiredString("run_at"), lastError: try row.string("last_error"),
                errors: try row.string("errors") ?? "[]")
        }
    }

    /// The receipt's expense; nil while it has none.
    public static func expense(ofReceipt id: Int64, in connection: PostgresConnection) async throws -> Expense? {
        let rows = try await connection.query(
            """
            SELECT id, merchant, expense_date::text AS date, date_is_ambiguous, currency,
                   money_text(subtotal) AS subtotal, money_text(tax) AS tax, money_text(tip) AS tip,
                   money_text(fees) AS fees, money_text(discounts) AS discounts, money_text(total) AS total, category,
                   payment_method, confidence::text AS confidence, status, validation_outcome, findings::text AS findings,
                   extraction_source,
                   (SELECT d.receipt_id FROM expenses d WHERE d.id = e.possible_duplicate_of) AS possible_duplicate_of,
                   llm_model, llm_calls, llm_input_tokens, llm_output_tokens, page_source,
                   array_to_string(review_reasons, ',') AS reasons, field_sources::text AS field_sources
            FROM expenses e WHERE receipt_id = $1
            """, [id])
        guard let row = rows.first else { return nil }
        return Expense(
            id: try row.requiredID("id"), status: try row.requiredValue("status", as: ExpenseStatus.self),
            validationOutcome: try row.requiredValue("validation_outcome", as: ReconciliationOutcome.self),
            extractionSource: try row.requiredValue("extraction_source", as: ExtractionSource.self),
            pageSource: try row.requiredValue("page_source", as: PageSource.self),
            confidence: try row.string("confidence"), merchant: try row.string("merchant"),
            date: try row.string("date"), dateIsAmbiguous: try row.requiredBool("date_is_ambiguous"),
            currency: try row.string("currency"), subtotal: try row.string("subtotal"),
            discounts: try row.string("discounts"), fees: try row.string("fees"), tax: try row.string("tax"),
            tip: try row.string("tip"), total: try row.string("total"), category: try row.string("category"),
            paymentMethod: try row.string("payment_method"),
            fieldSources: try row.json("field_sources", as: FieldSources.self),
            possibleDuplicateOf: try row.int("possible_duplicate_of").map(Int64.init),
            reasons: try PostgresReviewStore.reasons(row),
            findings: try row.json("findings", as: [Finding].self) ?? [], llmModel: try row.string("llm_model"),
            llmCalls: try row.int("llm_calls") ?? 0, llmInputTokens: try row.int("llm_input_tokens") ?? 0,
            llmOutputTokens: try row.int("llm_output_tokens") ?? 0)
    }

    /// The expense's line items in order, as the review page reads them.
    public static func items(ofExpense id: Int64, in connection: PostgresConnection) async throws -> [ReviewItem] {
        try await connection.query(PostgresReviewStore.itemsQuery, [id]).map(PostgresReviewStore.item)
    }

    /// The receipt's corrections, oldest first.
    public static func corrections(ofReceipt id: Int64, in connection: PostgresConnection) async throws
        -> [Correction]
    {
        try await connection.query(
            """
            SELECT field, machine_value, person_value, corrected_by, corrected_at::text AS corrected_at
            FROM corrections WHERE receipt_id = $1 ORDER BY id
            """, [id]
        ).map { row in
            Correction(
                field: try row.requiredValue("field", as: CorrectionField.self),
                machineValue: try row.string("machine_value"), personValue: try row.string("person_value"),
                correctedBy: try row.requiredString("corrected_by"), correctedAt: try row.requiredString("corrected_at")
            )
        }
    }

    /// The receipt's stage timings by attempt, in the order they ran.
    public static func stageTimings(ofReceipt id: Int64, in connection: PostgresConnection) async throws
        -> [StageTiming]
    {
        try await connection.query(
            """
            SELECT attempt, stage, round(duration_ms::numeric, 1)::text AS ms, outcome, detail FROM stage_timings
            WHERE receipt_id = $1 ORDER BY attempt, started_at, id
            """, [id]
        ).map { row in
            StageTiming(
                attempt: try row.requiredInt("attempt"), stage: try row.requiredValue("stage", as: Stage.self),
                milliseconds: try row.requiredString("ms"),
                outcome: try row.requiredValue("outcome", as: StageOutcome.self), detail: try row.string("detail"))
        }
    }
}
