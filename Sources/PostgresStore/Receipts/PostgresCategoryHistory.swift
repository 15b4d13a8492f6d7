import Foundation
import PipelineCore

/// Categories people chose (`CategoryHistory`): the category of the latest expense of the same merchant — the same
/// `merchantKey`, stored with every expense — that a person accepted or whose category a person corrected
/// (`corrections`, migration 0011). Rejected expenses teach nothing.
public struct PostgresCategoryHistory: CategoryHistory {
    private let database: any PostgresSessions

    /// - Parameter database: the worker's reading connection.
    public init(database: any PostgresSessions) {
        self.database = database
    }

    public func learnedCategory(merchant: String, receiptID: Int64) async throws -> ExpenseCategory? {
        try await database.withConnection { connection in
            guard let key = Self.merchantKey(merchant) else { return nil }
            let row = try await connection.query(
                """
                SELECT e.category FROM expenses e
                JOIN LATERAL (
                    SELECT max(c.id) AS decided FROM corrections c
                    WHERE c.receipt_id = e.receipt_id
                      AND (c.field = 'category' OR (c.field = 'status' AND c.person_value = 'accepted'))
                ) AS person ON person.decided IS NOT NULL
                WHERE e.merchant_key = $1 AND e.receipt_id <> $2
                  AND e.status <> 'rejected'
                ORDER BY person.decided DESC LIMIT 1
                """, [key, receiptID]
            ).first
            return try row?.string("category").flatMap(ExpenseCategory.init(rawValue:))
        }
    }
}
