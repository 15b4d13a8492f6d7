import Foundation

/// Checks and normalizes a value a person typed for a field: the one place that decides what a field accepts.
public enum FieldValue {
    /// The stored text of `raw` for `field`: money as a plain decimal, dates as `YYYY-MM-DD`, currency upper-cased;
    /// nil clears an optional field (an empty value).
    /// - Throws: `ReviewError.invalidValue` naming the field, the value and the accepted form.
    public static func normalize(_ raw: String, for field: CorrectableField) throws(ReviewError) -> String? {
        let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if value.isEmpty {
            guard field != .category else { throw invalid(field, raw, "one of: \(categoryList)") }
            return nil
        }
        switch field {
        case .merchant:
            guard value.count <= 200 else {
                throw invalid(field, String(value.prefix(40)) + "…", "at most 200 characters")
            }
            return value
        case .date:
            guard let date = parseDate(value) else { throw invalid(field, value, "a date such as 2024-01-31") }
            return date
        case .currency:
            let code = value.uppercased()
            guard code.count == 3, code.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw invalid(field, value, "a three-letter ISO 4217 code such as USD")
            }
            return code
        case .category:
            guard
                let category = ExpenseCategory.allCases.first(where: { $0.rawValue.lowercased() == value.lowercased() })
            else { throw invalid(field, value, "one of: \(categoryList)") }
            return category.rawValue
        case .paymentMethod:
            guard let method = PaymentMethod(rawValue: value.lowercased()) else {
                throw invalid(field, value, "one of: " + PaymentMethod.allCases.map(\.rawValue).joined(separator: ", "))
            }
            return method.rawValue
        case .subtotal, .discounts, .fees, .tax, .tip, .total:
            guard let amount = parseAmount(value) else { throw invalid(field, value, amountForm) }
            return amount
        }
    }

    /// How an amount must be typed, for messages.
    static let amountForm = "an amount such as 12.34 (a dot for decimals, up to 3 of them, no thousands separator)"

    /// The expense categories, for messages.
    public static var categoryList: String {
        ExpenseCategory.allCases.map(\.rawValue).joined(separator: ", ")
    }

    private static func invalid(_ field: CorrectableField, _ value: String, _ form: String) -> ReviewError {
        ReviewError(.invalidValue, "\(field.label) must be \(form) (got \"\(value)\")")
    }

    /// `12`, `12.3`, `-0.50` → the same text with a leading zero; nil for anything else.
    static func parseAmount(_ text: String) -> String? {
        let unsigned = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty, whole.count <= 10,
            whole.allSatisfy(\.isASCIIDigit)
        else { return nil }
        if parts.count == 2 {
            guard (1...3).contains(parts[1].count), parts[1].allSatisfy(\.isASCIIDigit) else { return nil }
        }
        guard let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
        return "\(decimal)"
    }

    /// A real calendar date in `YYYY-MM-DD` form between 1900 and 2999.
    private static func parseDate(_ text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1900...2999).contains(year), (1...12).contains(month), day >= 1
        else { return nil }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day <= lengths[month - 1] else { return nil }
        return text
    }
}
