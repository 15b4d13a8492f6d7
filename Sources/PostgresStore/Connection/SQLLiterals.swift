import Foundation
import PipelineCore

/// Parameter encodings beyond scalars: array, interval and JSON literals for `$n::type[]`, `$n::interval` and
/// `$n::jsonb`.
enum SQLLiterals {
    /// A value as JSON text with sorted keys, for a `$n::jsonb` parameter.
    /// - Throws: `PostgresError.encodingFailed` naming the column when the value does not encode (a number that
    ///   is not finite).
    static func json<Value: Encodable>(_ value: Value, column: String) throws(PostgresError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw PostgresError(
                code: .encodingFailed, message: "\(column) could not be written as JSON: \(error)")
        }
    }

    /// A PostgreSQL array literal (`{"a",NULL,"b"}`) for a `$n::type[]` parameter; elements are quoted and escaped.
    static func array(_ values: [String?]) -> String {
        var literal = "{"
        literal.reserveCapacity(values.count * 70)
        for (index, value) in values.enumerated() {
            if index > 0 { literal.append(",") }
            guard let value else {
                literal.append("NULL")
                continue
            }
            literal.append("\"")
            if value.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") }) {
                for character in value {
                    if character == "\\" || character == "\"" { literal.append("\\") }
                    literal.append(character)
                }
            } else {
                literal.append(value)
            }
            literal.append("\"")
        }
        literal.append("}")
        return literal
    }

    /// An array literal of integers.
    static func array<Integer: BinaryInteger>(_ values: [Integer]) -> String {
        "{" + values.map { String($0) }.joined(separator: ",") + "}"
    }

    /// A duration as an `interval` literal with microsecond precision.
    static func interval(_ duration: Duration) -> String {
        "\(duration.microseconds) microseconds"
    }
}
