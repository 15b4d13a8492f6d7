import Foundation
import PipelineCore

/// How review values map onto the `expenses` columns and the JSON stored beside them.
extension PostgresReviewStore {
    /// The column of a field in `expenses` (and its alias in selects).
    static func column(_ field: CorrectableField) -> String {
        switch field {
        case .date: "date"
        default: field.rawValue
        }
    }

    /// The field's value as exact text: money through `money_text`, dates as `YYYY-MM-DD`.
    static func textExpression(_ field: CorrectableField) -> String {
        switch field {
        case .date: "expense_date::text"
        case .subtotal, .discounts, .fees, .tax, .tip, .total: "money_text(\(field.rawValue))"
        default: field.rawValue
        }
    }

    /// The review reasons of a row (`reasons`, comma separated).
    /// - Throws: `PostgresError.decodingFailed` naming a reason this program does not know.
    static func reasons(_ row: PostgresRow) throws(PostgresError) -> [ReviewReason] {
        try (row.string("reasons") ?? "").split(separator: ",").map { name throws(PostgresError) in
            guard let reason = ReviewReason(rawValue: String(name)) else {
                throw PostgresError(
                    code: .decodingFailed,
                    message: "column 'reasons' holds '\(name)', not a review reason; the database has a value this "
                        + "program does not know (is the program older than the schema?)")
            }
            return reason
        }
    }

    /// An expense's line items in order (`$1`: the expense id), as `item(_:)` reads them.
    static let itemsQuery = """
        SELECT position, name, trim_scale(quantity)::text AS quantity, money_text(unit_price) AS unit_price,
               money_text(total_price) AS total_price, category
        FROM expense_items WHERE expense_id = $1 ORDER BY position
        """

    /// A row of `itemsQuery`.
    static func item(_ row: PostgresRow) throws(PostgresError) -> ReviewItem {
        ReviewItem(
            position: try row.requiredInt("position"), name: try row.requiredString("name"),
            quantity: try row.string("quantity"), unitPrice: try row.string("unit_price"),
            totalPrice: try row.string("total_price"),
            category: try row.requiredValue("category", as: ItemCategory.self))
    }

    static func correction(_ row: PostgresRow) throws -> Correction {
        Correction(
            field: try row.requiredValue("field", as: CorrectionField.self),
            machineValue: try row.string("machine_value"),
            personValue: try row.string("person_value"), correctedBy: try row.requiredString("corrected_by"),
            correctedAt: try row.requiredDate("corrected_at"))
    }
}
