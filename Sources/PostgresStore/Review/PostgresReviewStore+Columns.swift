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

    /// The field's key in `field_sources`, as the worker writes it.
    static func sourceKey(_ field: CorrectableField) -> String {
        field == .paymentMethod ? "paymentMethod" : field.rawValue
    }

    /// `field_sources` decoded: per field, how sure the machine was and the OCR lines it came from. A key field's
    /// sureness is the probability the acceptance decision weighed (`trust`, with the `trustThreshold` it needed),
    /// not the extractor's own confidence, so the page and the finding say the same.
    static func fieldSources(_ json: String?) -> [String: (confidence: Double?, threshold: Double?, lines: [Int])] {
        guard let json, let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            return [:]
        }
        return object.compactMapValues { value in
            guard let entry = value as? [String: Any] else { return nil }
            let lines = (entry["lines"] as? [Any] ?? []).compactMap { ($0 as? NSNumber)?.intValue }
            let trust = (entry["trust"] as? NSNumber)?.doubleValue
            let confidence = trust ?? (entry["confidence"] as? NSNumber)?.doubleValue
            return (confidence, trust == nil ? nil : (entry["trustThreshold"] as? NSNumber)?.doubleValue, lines)
        }
    }

    static func reasons(_ list: String?) -> [ReviewReason] {
        (list ?? "").split(separator: ",").compactMap { ReviewReason(rawValue: String($0)) }
    }

    static func correction(_ row: PostgresRow) throws -> Correction {
        Correction(
            field: try row.requiredValue("field", as: CorrectionField.self),
            machineValue: try row.string("machine_value"),
            personValue: try row.string("person_value"), correctedBy: try row.requiredString("corrected_by"),
            correctedAt: try row.requiredDate("corrected_at"))
    }
}
