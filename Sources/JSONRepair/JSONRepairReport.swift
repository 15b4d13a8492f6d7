/// One thing the repairer changed, dropped or distrusted, with where it happened.
public struct JSONRepairNote: Sendable, Equatable, CustomStringConvertible {
    /// What happened to the input at that place.
    public enum Kind: String, Sendable {
        /// Something was removed because it was unfinished or could not be read safely.
        case dropped
        /// Broken syntax was fixed without changing any value (quotes, commas, comments, fences).
        case fixed
        /// A value was kept but deserves a second look (e.g. unquoted text, a lone surrogate).
        case flagged
    }

    public let kind: Kind
    /// Dotted path of the value concerned (`items[2].totalPrice`), or `$` for the document.
    public let path: String
    /// What was wrong, in words an operator understands.
    public let detail: String

    public init(_ kind: Kind, at path: String, _ detail: String) {
        self.kind = kind
        self.path = path.isEmpty ? "$" : path
        self.detail = detail
    }

    public var description: String { "\(kind.rawValue) \(path): \(detail)" }
}

/// The outcome of repairing one model reply.
public struct JSONRepairResult: Sendable {
    /// The recovered value, or nil when nothing usable was found.
    public let value: JSONValue?
    /// Everything dropped, fixed or flagged, in input order.
    public let notes: [JSONRepairNote]
    /// True when the text ended inside the JSON (or the provider said it was cut off).
    public let wasTruncated: Bool
    /// For each complete value, the offset (in Unicode scalars of the input) just past its last character.
    /// Keys are paths as in the notes (`$` is the document).
    public let valueEnds: [String: Int]

    /// True when an object with at least one member was recovered.
    public var isUsable: Bool {
        guard let members = value?.members else { return false }
        return !members.isEmpty
    }
}
