import Foundation
import PipelineCore

/// Parameter encodings beyond scalars: array and interval literals for `$n::type[]` and `$n::interval`.
enum SQLLiterals {
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
