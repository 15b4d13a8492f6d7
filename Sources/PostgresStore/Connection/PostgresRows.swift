import Foundation

/// The rows a statement returned, copied out of libpq's result.
public struct PostgresRows: Sendable, Sequence {
    /// Column names, in order.
    public let columns: [String]
    let cells: [[[UInt8]?]]
    let isBinary: Bool
    /// Rows affected by INSERT/UPDATE/DELETE (`PQcmdTuples`), 0 otherwise.
    public let affectedRows: Int

    public var count: Int { cells.count }
    public var first: PostgresRow? { cells.isEmpty ? nil : self[0] }

    public subscript(index: Int) -> PostgresRow {
        PostgresRow(columns: columns, cells: cells[index], isBinary: isBinary)
    }

    public func makeIterator() -> some IteratorProtocol<PostgresRow> {
        cells.lazy.map { PostgresRow(columns: columns, cells: $0, isBinary: isBinary) }.makeIterator()
    }
}

/// One row; values are read by column name and decoded on access.
public struct PostgresRow: Sendable {
    let columns: [String]
    let cells: [[UInt8]?]
    let isBinary: Bool

    private func raw(_ column: String) throws(PostgresError) -> [UInt8]? {
        guard let index = columns.firstIndex(of: column) else {
            throw PostgresError(code: .decodingFailed, message: "result has no column '\(column)' (has \(columns))")
        }
        return cells[index]
    }

    private func decode<T>(_ column: String, as type: String, _ parse: (String) -> T?) throws(PostgresError) -> T? {
        guard let bytes = try raw(column) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        guard let value = parse(text) else {
            throw PostgresError(code: .decodingFailed, message: "column '\(column)' holds '\(text)', not \(type)")
        }
        return value
    }

    public func string(_ column: String) throws(PostgresError) -> String? {
        try decode(column, as: "text") { $0 }
    }

    public func int(_ column: String) throws(PostgresError) -> Int? {
        try decode(column, as: "an integer") { Int($0) }
    }

    public func double(_ column: String) throws(PostgresError) -> Double? {
        try decode(column, as: "a number") { Double($0) }
    }

    public func bool(_ column: String) throws(PostgresError) -> Bool? {
        try decode(column, as: "a boolean") { ["t": true, "f": false, "true": true, "false": false][$0] }
    }

    /// A `numeric` as an exact `Decimal` (never through floating point).
    public func decimal(_ column: String) throws(PostgresError) -> Decimal? {
        try decode(column, as: "a numeric") { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }
    }

    /// A `timestamptz` (the session runs in UTC with ISO date style).
    public func date(_ column: String) throws(PostgresError) -> Date? {
        try decode(column, as: "a timestamp", parseTimestamp)
    }

    // Required columns: the schema says NOT NULL (or the query always yields a value), so a NULL means the database
    // is not what this program expects; each throws naming the column instead of reading a default.

    /// A required `text` column. - Throws: `PostgresError.decodingFailed` naming the column when it is NULL.
    public func requiredString(_ column: String) throws(PostgresError) -> String {
        try required(column, string(column))
    }

    /// A required integer column. - Throws: `PostgresError.decodingFailed` naming the column when it is NULL or not
    /// an integer.
    public func requiredInt(_ column: String) throws(PostgresError) -> Int {
        try required(column, int(column))
    }

    /// A required integer column as an id. - Throws: as `requiredInt(_:)`.
    public func requiredID(_ column: String) throws(PostgresError) -> Int64 {
        Int64(try requiredInt(column))
    }

    /// A required boolean column. - Throws: `PostgresError.decodingFailed` naming the column when it is NULL or not
    /// a boolean.
    public func requiredBool(_ column: String) throws(PostgresError) -> Bool {
        try required(column, bool(column))
    }

    /// A required `timestamptz` column. - Throws: `PostgresError.decodingFailed` naming the column when it is NULL
    /// or not a timestamp.
    public func requiredDate(_ column: String) throws(PostgresError) -> Date {
        try required(column, date(column))
    }

    /// A required `numeric` column. - Throws: `PostgresError.decodingFailed` naming the column when it is NULL or
    /// not a number.
    public func requiredDecimal(_ column: String) throws(PostgresError) -> Decimal {
        try required(column, decimal(column))
    }

    /// A required `bytea` column. - Throws: `PostgresError.decodingFailed` naming the column when it is NULL.
    public func requiredBytes(_ column: String) throws(PostgresError) -> [UInt8] {
        try required(column, bytes(column))
    }

    /// A required text column holding one of a closed set of values (a status, a reason, a field name).
    /// - Throws: `PostgresError.decodingFailed` naming the column and the value when it is NULL or not one of the
    ///   set.
    public func requiredValue<Value: RawRepresentable>(_ column: String, as type: Value.Type) throws(PostgresError)
        -> Value where Value.RawValue == String
    {
        try required(column, value(column, as: type))
    }

    /// An optional text column holding one of a closed set of values; nil when it is NULL.
    /// - Throws: `PostgresError.decodingFailed` naming the column and the value when it is not one of the set.
    public func value<Value: RawRepresentable>(_ column: String, as type: Value.Type) throws(PostgresError)
        -> Value? where Value.RawValue == String
    {
        guard let text = try string(column) else { return nil }
        guard let value = Value(rawValue: text) else {
            throw PostgresError(
                code: .decodingFailed,
                message: "column '\(column)' holds '\(text)', not a \(Value.self); the database has a value this "
                    + "program does not know (is the program older than the schema?)")
        }
        return value
    }

    private func required<Value>(_ column: String, _ value: Value?) throws(PostgresError) -> Value {
        guard let value else {
            throw PostgresError(
                code: .decodingFailed,
                message: "column '\(column)' is NULL where a value is required; the schema is not what this program "
                    + "expects (run pipeline migrate, or check the query)")
        }
        return value
    }

    /// A `json`/`jsonb` column (selected as text) decoded as `Value`; nil when it is NULL.
    /// - Throws: `PostgresError.decodingFailed` naming the column and what is wrong when it holds JSON that is not a
    ///   `Value`.
    public func json<Value: Decodable>(_ column: String, as type: Value.Type) throws(PostgresError) -> Value? {
        guard let text = try string(column) else { return nil }
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw PostgresError(
                code: .decodingFailed,
                message: "column '\(column)' holds JSON that is not a \(Value.self) (\(error)); the stored row is "
                    + "damaged or newer than this program: reprocess the receipt (pipeline reprocess) or upgrade")
        }
    }

    /// A `bytea`: raw bytes in binary results, `\x`-hex in text results.
    public func bytes(_ column: String) throws(PostgresError) -> [UInt8]? {
        guard let bytes = try raw(column) else { return nil }
        if isBinary { return bytes }
        guard let decoded = decodeHexBytea(bytes) else {
            throw PostgresError(code: .decodingFailed, message: "column '\(column)' is not a hex bytea")
        }
        return decoded
    }
}

private func decodeHexBytea(_ text: [UInt8]) -> [UInt8]? {
    guard text.count >= 2, text[0] == UInt8(ascii: "\\"), text[1] == UInt8(ascii: "x"), text.count % 2 == 0 else {
        return nil
    }
    func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
    var out = [UInt8]()
    out.reserveCapacity(text.count / 2 - 1)
    var index = 2
    while index < text.count {
        guard let high = nibble(text[index]), let low = nibble(text[index + 1]) else { return nil }
        out.append(high << 4 | low)
        index += 2
    }
    return out
}

/// Parses `2026-11-22 04:14:25.123456+00` (ISO style, UTC session).
func parseTimestamp(_ text: String) -> Date? {
    let parts = text.split(separator: " ")
    guard parts.count == 2 else { return nil }
    let dateParts = parts[0].split(separator: "-").compactMap { Int($0) }
    var time = Substring(parts[1])
    var offsetSeconds = 0
    if let signIndex = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
        let sign = time[signIndex] == "-" ? -1 : 1
        let offset = time[time.index(after: signIndex)...].split(separator: ":").compactMap { Int($0) }
        offsetSeconds = sign * ((offset.first ?? 0) * 3600 + (offset.dropFirst().first ?? 0) * 60)
        time = time[..<signIndex]
    }
    let timeParts = time.split(separator: ":")
    guard dateParts.count == 3, timeParts.count == 3, let hour = Int(timeParts[0]), let minute = Int(timeParts[1]),
        let second = Double(timeParts[2])
    else { return nil }
    var components = DateComponents()
    components.year = dateParts[0]
    components.month = dateParts[1]
    components.day = dateParts[2]
    components.hour = hour
    components.minute = minute
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    guard let base = calendar.date(from: components) else { return nil }
    return base.addingTimeInterval(second - Double(offsetSeconds))
}
