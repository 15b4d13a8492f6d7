import Foundation
import PipelineCore

/// Reads accepted expenses for the accounting exports (`pipeline export --format ledger | beancount | …`).
public enum JournalStore {
    /// Accepted expenses committed since `start`, by date then id, each with its items' categories and amounts.
    public static func acceptedExpenses(since start: Date, from connection: PostgresConnection) async throws
        -> [JournalExpense]
    {
        let rows = try await connection.query(
            """
            SELECT e.receipt_id, r.original_path AS file, e.merchant, e.expense_date::text AS date, e.currency,
                   e.total::text AS total, e.category, e.payment_method,
                   (SELECT coalesce(json_agg(json_build_object('category', i.category, 'amount', i.total_price::text)
                        ORDER BY i.position), '[]')::text
                    FROM expense_items i WHERE i.expense_id = e.id AND i.total_price IS NOT NULL) AS items
            FROM expenses e JOIN receipts r ON r.id = e.receipt_id
            WHERE e.status = 'accepted' AND e.committed_at >= $1
            ORDER BY e.expense_date NULLS LAST, e.receipt_id
            """, [start])
        return try rows.map { row in
            return JournalExpense(
                receiptID: try row.requiredID("receipt_id"), file: try row.requiredString("file"),
                merchant: try row.string("merchant"), date: try row.string("date"),
                currency: try row.string("currency"),
                total: try row.string("total").flatMap {
                    Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX"))
                },
                category: try row.value("category", as: ExpenseCategory.self),
                paymentMethod: try row.value("payment_method", as: PaymentMethod.self),
                items: try row.json("items", as: [JournalItem].self) ?? [])
        }
    }
}
