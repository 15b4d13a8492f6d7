import Foundation

/// Parameter encodings the queue's statements need beyond scalars.
enum QueueSQLValues {
    /// A PostgreSQL array literal (`{"a",NULL,"b"}`) for a `$n::type[]` parameter; elements are quoted and escaped.
    static func array(_ values: [String?]) -> String {
        let elements = values.map { value -> String in
            guard let value else { return "NULL" }
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"" + escaped + "\""
        }
        return "{" + elements.joined(separator: ",") + "}"
    }

    /// An array literal of integers.
    static func array<Integer: BinaryInteger>(_ values: [Integer]) -> String {
        "{" + values.map { String($0) }.joined(separator: ",") + "}"
    }

    /// A duration as an `interval` literal with microsecond precision.
    static func interval(_ duration: Duration) -> String {
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        return "\(micros) microseconds"
    }
}
