/// A JSON value that keeps numbers as their source text, so money never passes through `Double`.
///
/// Objects keep their members in source order; a repeated key keeps its last value.
public enum JSONValue: Sendable, Equatable {
    case object([JSONMember])
    case array([JSONValue])
    case string(String)
    /// A number exactly as written in the source, e.g. `"12.50"` or `"1e3"` (always valid JSON number syntax).
    case number(String)
    case bool(Bool)
    case null

    /// The value of `key` when this is an object holding it.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// The members when this is an object.
    public var members: [JSONMember]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements when this is an array.
    public var elements: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The text when this is a string.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}

/// One `"key": value` pair of a JSON object.
public struct JSONMember: Sendable, Equatable {
    public var key: String
    public var value: JSONValue

    public init(_ key: String, _ value: JSONValue) {
        self.key = key
        self.value = value
    }
}
