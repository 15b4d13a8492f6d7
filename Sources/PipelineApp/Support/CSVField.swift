import Foundation

/// One CSV field (RFC 4180): quoted when it holds a comma, a double quote or a line break, with double quotes
/// doubled; nil is an empty field. `report --csv` and `export --format csv` write every field through it.
func csvField(_ value: String?) -> String {
    guard let value else { return "" }
    guard value.unicodeScalars.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else {
        return value
    }
    return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
