import Foundation

/// The one encoding of every command's `--json` output: snake_case keys, as `export` names its columns (the keys of
/// free-form maps, such as failure texts, stay as they are), sorted and indented, dates in ISO 8601.
enum JSONOutput {
    static func text<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        encoder.keyEncodingStrategy = .convertToSnakeCase
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
