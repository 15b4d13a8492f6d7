import Foundation
import PipelineCore

/// The expenses `pipeline export` writes: one row per expense, every value as text (money as exact decimal strings).
public enum ExpenseExport {
    /// The exported columns, in order.
    public static let columns = [
        "expense_id", "receipt_id", "file", "merchant", "date", "currency", "subtotal", "discounts", "fees", "tax",
        "tip", "total", "category", "payment_method", "status", "validation_outcome", "item_count", "committed_at",
        "possible_duplicate_of", "date_is_ambiguous", "review_reasons", "corrected", "page_source",
        "email_from", "email_subject", "email_sent_at", "merchant_trust", "date_trust", "total_trust",
        "brand",
    ]

    /// One exported expense.
    public struct Row: Sendable, Equatable {
        /// The values of `columns`, in their order; nil where the expense has none.
        public var values: [String?]
        /// The expense's line items as a JSON array of objects (`name`, `quantity`, `unitPrice`, `totalPrice`,
        /// `category`).
        public var itemsJSON: String
    }

    /// Expenses committed at or after `start`, with `status` when given, by id.
    public static func rows(committedSince start: Date, status: ExpenseStatus?, in connection: PostgresConnection)
        async throws -> [Row]
    {
        try await connection.query(query, [start, status?.rawValue]).map { row in
            Row(values: try columns.map { try row.string($0) }, itemsJSON: try row.requiredString("items_json"))
        }
    }

    private static let query = """
        SELECT e.id::text AS expense_id, e.receipt_id::text AS receipt_id, r.original_path AS file, e.merchant,
               e.expense_date::text AS date, e.currency, money_text(e.subtotal) AS subtotal, money_text(e.discounts) AS discounts,
               money_text(e.fees) AS fees, money_text(e.tax) AS tax, money_text(e.tip) AS tip, money_text(e.total) AS total, e.category,
               e.payment_method, e.status, e.validation_outcome,
               (SELECT count(*) FROM expense_items i WHERE i.expense_id = e.id)::text AS item_count,
               e.committed_at::text AS committed_at,
               (SELECT d.receipt_id::text FROM expenses d WHERE d.id = e.possible_duplicate_of)
                   AS possible_duplicate_of,
               e.date_is_ambiguous::text AS date_is_ambiguous,
               array_to_string(e.review_reasons, ' ')
                   AS review_reasons,
               (SELECT string_agg(DISTINCT c.field, ' ') FROM corrections c WHERE c.receipt_id = e.receipt_id)
                   AS corrected,
               e.page_source, m.sender AS email_from, m.subject AS email_subject, m.sent_at::text AS email_sent_at,
               e.field_sources -> 'merchant' ->> 'trust' AS merchant_trust,
               e.field_sources -> 'date' ->> 'trust' AS date_trust,
               e.field_sources -> 'total' ->> 'trust' AS total_trust, e.brand,
               (SELECT coalesce(json_agg(json_build_object('name', i.name, 'quantity', i.quantity::text,
                    'unitPrice', money_text(i.unit_price), 'totalPrice', money_text(i.total_price), 'category', i.category)
                    ORDER BY i.position), '[]')::text FROM expense_items i WHERE i.expense_id = e.id) AS items_json
        FROM expenses e JOIN receipts r ON r.id = e.receipt_id LEFT JOIN messages m ON m.id = r.message_id
        WHERE e.committed_at >= $1 AND ($2::text IS NULL OR e.status = $2)
        ORDER BY e.id
        """
}
