import Foundation
import JSONRepair
import Testing

/// Fixtures of the repair tests and comparisons against Foundation's own JSON parser.
enum RepairFixtures {
    static var folder: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Fixtures/json-repair")
    }

    static func text(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// The receipt documents of the truncation property test, by file name.
    static func receiptDocuments() throws -> [(name: String, text: String)] {
        let receipts = folder.appendingPathComponent("receipts")
        let names = try FileManager.default.contentsOfDirectory(atPath: receipts.path).filter { $0.hasSuffix(".json") }
        return try names.sorted().map {
            ($0, try String(contentsOf: receipts.appendingPathComponent($0), encoding: .utf8))
        }
    }
}

/// Whether `value` equals what `JSONSerialization` parsed (numbers compared as decimals).
func matchesFoundation(_ value: JSONValue, _ other: Any) -> Bool {
    switch value {
    case .null: return other is NSNull
    case .string(let text): return (other as? String) == text
    case .bool(let flag):
        guard let number = other as? NSNumber, String(cString: number.objCType) == "c" else { return false }
        return number.boolValue == flag
    case .number(let text):
        guard let number = other as? NSNumber, String(cString: number.objCType) != "c" else { return false }
        return Decimal(string: text) == Decimal(string: number.stringValue)
    case .array(let elements):
        guard let array = other as? [Any], array.count == elements.count else { return false }
        return zip(elements, array).allSatisfy { matchesFoundation($0, $1) }
    case .object(let members):
        guard let dictionary = other as? [String: Any], dictionary.count == members.count else { return false }
        return members.allSatisfy { member in
            dictionary[member.key].map { matchesFoundation(member.value, $0) } ?? false
        }
    }
}

/// Every scalar of `value` by path (`items[0].name`), numbers as decimals.
func leaves(of value: JSONValue, path: String = "") -> [String: LeafValue] {
    switch value {
    case .object(let members):
        return members.reduce(into: [:]) { result, member in
            result.merge(leaves(of: member.value, path: path.isEmpty ? member.key : path + "." + member.key)) { $1 }
        }
    case .array(let elements):
        return elements.enumerated().reduce(into: [:]) { result, element in
            result.merge(leaves(of: element.element, path: "\(path)[\(element.offset)]")) { $1 }
        }
    case .number(let text): return [path: .number(Decimal(string: text)!)]
    case .string(let text): return [path: .string(text)]
    case .bool(let flag): return [path: .bool(flag)]
    case .null: return [path: .null]
    }
}

/// A scalar compared by meaning: `12.50` equals `12.5`.
enum LeafValue: Equatable {
    case number(Decimal)
    case string(String)
    case bool(Bool)
    case null
}
