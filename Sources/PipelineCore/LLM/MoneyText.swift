import Foundation
import JSONRepair

/// Which character separates the decimals in amounts written as text.
public enum DecimalNotation: Sendable, Equatable {
    /// `1,234.56`: a point before the decimals, commas between thousands.
    case point
    /// `1.234,56`: a comma before the decimals, points (or spaces) between thousands.
    case comma
    /// Not known: any amount whose separator could mean either (`1,234`, `12,34`, `1.234`) is refused.
    case unknown

    /// The usual notation for amounts in an ISO 4217 currency, when the currency settles it; `.unknown` for
    /// currencies written both ways (such as EUR).
    public static func usual(for currency: String?) -> DecimalNotation {
        guard let currency = currency?.uppercased() else { return .unknown }
        if pointCurrencies.contains(currency) { return .point }
        if commaCurrencies.contains(currency) { return .comma }
        return .unknown
    }

    private static let pointCurrencies: Set<String> = [
        "USD", "GBP", "JPY", "CNY", "INR", "MYR", "SGD", "AUD", "NZD", "HKD", "PHP", "THB", "KRW", "MXN", "ILS", "AED",
        "SAR",
    ]
    private static let commaCurrencies: Set<String> = [
        "BRL", "ARS", "CLP", "COP", "IDR", "VND", "DKK", "NOK", "SEK", "PLN", "CZK", "HUF", "RON", "TRY", "RUB", "UAH",
    ]
}

/// Reads money from JSON text as `Decimal`, never through `Double`.
public enum MoneyText {
    /// Why an amount was refused.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        /// `1,234` or `12,34` with no currency or locale to say which separator is the decimal one.
        case ambiguousSeparator(String)
        /// Not an amount at all (`"n/a"`, `true`, an object).
        case notAnAmount(String)

        public var description: String {
            switch self {
            case .ambiguousSeparator(let text):
                "'\(text)' could be read two ways (thousands or decimal separator); the currency does not decide it"
            case .notAnAmount(let text): "'\(text)' is not an amount"
            }
        }
    }

    private static let posix = Locale(identifier: "en_US_POSIX")

    /// The amount of a JSON number (its source text) or string such as `"$1,234.56"`.
    /// - Returns: nil for JSON null; the amount; or why it was refused.
    public static func amount(of value: JSONValue, notation: DecimalNotation) -> Result<Decimal, Refusal>? {
        switch value {
        case .null: return nil
        case .number(let text): return decimal(text).map { .success($0) } ?? .failure(.notAnAmount(text))
        case .string(let text): return amount(of: text, notation: notation)
        default: return .failure(.notAnAmount(value.jsonText()))
        }
    }

    private static func isASCIIDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    /// The amount written in `text`: currency symbols and codes, spaces and a leading minus or parentheses allowed.
    public static func amount(of text: String, notation: DecimalNotation) -> Result<Decimal, Refusal>? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || ["null", "n/a", "none", "-"].contains(trimmed.lowercased()) { return nil }
        let isNegative = trimmed.hasPrefix("-") || trimmed.hasPrefix("(") && trimmed.hasSuffix(")")
        let body = trimmed.unicodeScalars.filter { isASCIIDigit($0) || $0 == "." || $0 == "," }
        let stripped = String(String.UnicodeScalarView(body))
        let rest = trimmed.unicodeScalars.filter {
            !isASCIIDigit($0) && $0 != "." && $0 != "," && $0 != "-" && $0 != "(" && $0 != ")" && $0 != " "
        }
        guard !stripped.isEmpty, rest.allSatisfy({ !isASCIIDigit($0) }), String(rest).count <= 3 else {
            return .failure(.notAnAmount(text))
        }
        switch canonical(stripped, notation: notation) {
        case .success(let plain):
            guard let value = decimal(plain) else { return .failure(.notAnAmount(text)) }
            return .success(isNegative ? -value : value)
        case .failure(.ambiguousSeparator):
            return .failure(.ambiguousSeparator(text))
        case .failure(.notAnAmount):
            return .failure(.notAnAmount(text))
        }
    }

    /// Digits with at most one `.` before the decimals, resolving separators by `notation`.
    private static func canonical(_ text: String, notation: DecimalNotation) -> Result<String, Refusal> {
        let separators = text.filter { $0 == "." || $0 == "," }
        guard let last = text.lastIndex(where: { $0 == "." || $0 == "," }) else { return .success(text) }
        let decimals = text[text.index(after: last)...].count
        let lastSeparator = text[last]
        let kinds = Set(separators)
        if kinds.count == 2 {
            // Both kinds: the last one is the decimal separator, unless the notation says otherwise.
            let decimalSeparator: Character = lastSeparator
            if notation == .point && decimalSeparator == "," || notation == .comma && decimalSeparator == "." {
                return .failure(.ambiguousSeparator(text))
            }
            guard separators.filter({ $0 == decimalSeparator }).count == 1 else { return .failure(.notAnAmount(text)) }
            return .success(
                text.filter { $0 != (decimalSeparator == "." ? "," : ".") }.replacingOccurrences(of: ",", with: "."))
        }
        let isGrouping = decimals == 3
        if separators.count > 1 {
            // `1,234,567` or `1.234.567`: only grouping.
            guard isGrouping else { return .failure(.notAnAmount(text)) }
            return .success(text.filter { $0 != lastSeparator })
        }
        switch (notation, lastSeparator) {
        case (.point, "."), (.comma, ","):
            return .success(text.replacingOccurrences(of: ",", with: "."))
        case (.point, ","), (.comma, "."):
            return isGrouping ? .success(text.filter { $0 != lastSeparator }) : .failure(.ambiguousSeparator(text))
        default:
            // Unknown notation: a point with other than three decimals is a decimal point; all else is ambiguous.
            return lastSeparator == "." && !isGrouping ? .success(text) : .failure(.ambiguousSeparator(text))
        }
    }

    /// A plain `-?digits(.digits)?` text as a Decimal.
    static func decimal(_ text: String) -> Decimal? {
        guard let plainDecimal, plainDecimal.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        else { return nil }
        return Decimal(string: text, locale: posix)
    }

    /// `-?digits(.digits)?`, with an exponent (compiled once: every number on a page is read with it).
    private static let plainDecimal = try? NSRegularExpression(pattern: #"^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$"#)
}
