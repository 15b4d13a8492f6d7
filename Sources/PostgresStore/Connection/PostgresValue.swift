import Foundation
import PipelineCore

/// A bound parameter: libpq text, binary bytes (for `bytea`), or NULL.
public enum PostgresValue: Sendable, Equatable {
    case null
    case text(String)
    case bytes([UInt8])
}

/// A Swift value that can be bound as a statement parameter.
public protocol PostgresEncodable: Sendable {
    var postgresValue: PostgresValue { get }
}

extension String: PostgresEncodable {
    /// The text as a column stores it (`StorableText`): libpq passes parameters as C strings, so a NUL would cut the
    /// value short without a word.
    public var postgresValue: PostgresValue { .text(StorableText.storable(self)) }
}

extension Int: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Int64: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Bool: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(self ? "true" : "false") }
}

extension Double: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(String(self)) }
}

extension Decimal: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(NSDecimalNumber(decimal: self).description(withLocale: nil)) }
}

extension Date: PostgresEncodable {
    /// ISO 8601 in UTC with microseconds, which `timestamptz` parses exactly.
    public var postgresValue: PostgresValue {
        .text(
            formatted(
                .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted)))
    }
}

extension UUID: PostgresEncodable {
    public var postgresValue: PostgresValue { .text(uuidString.lowercased()) }
}

extension Array: PostgresEncodable where Element == UInt8 {
    public var postgresValue: PostgresValue { .bytes(self) }
}

extension Data: PostgresEncodable {
    public var postgresValue: PostgresValue { .bytes([UInt8](self)) }
}

extension Optional: PostgresEncodable where Wrapped: PostgresEncodable {
    public var postgresValue: PostgresValue { self?.postgresValue ?? .null }
}

extension PostgresValue: PostgresEncodable {
    public var postgresValue: PostgresValue { self }
}
