/// Turns a model reply into a JSON value without ever inventing one.
///
/// Tolerated: code fences and prose around the JSON (braces in the prose too), a second object after the first,
/// trailing or missing commas, single and curly quotes, comments, Python literals, unquoted keys, raw newlines
/// and unescaped quotes inside strings, surrogate-pair escapes. When the text ends inside the JSON, every
/// unfinished number, string, literal and key is dropped (never completed) and unfinished array elements that are
/// objects (line items) are dropped whole; complete members of unfinished containers are kept.
public enum JSONRepairer {
    /// Repairs `text`.
    /// - Parameters:
    ///   - text: the model's reply, as received.
    ///   - providerReportedTruncation: the provider said the reply was cut off (`finish_reason: length`).
    ///     Truncation is also detected from the text; this adds a note when the JSON nevertheless closed.
    /// - Returns: the value (nil when nothing usable was found) and what was dropped, fixed or flagged.
    public static func repair(_ text: String, providerReportedTruncation: Bool = false) -> JSONRepairResult {
        var parser = RepairingParser(Array(text.unicodeScalars))
        let value = parser.parseDocument()
        if providerReportedTruncation && !parser.reachedEndInside {
            parser.note(.flagged, "", "the provider reported truncation but the JSON closed; check that it is whole")
        }
        return JSONRepairResult(
            value: value, notes: parser.notes,
            wasTruncated: parser.reachedEndInside || providerReportedTruncation, valueEnds: parser.valueEnds)
    }
}

/// The outcome of parsing one value.
enum ParsedValue {
    /// The value was read to its end.
    case complete(JSONValue)
    /// The text ended inside it; containers keep what was complete, scalars are nil (dropped).
    case unfinished(JSONValue?)
    /// No value could be read here.
    case missing
}

/// A lenient recursive-descent parser over Unicode scalars that records what it repaired.
struct RepairingParser {
    let input: [Unicode.Scalar]
    var position = 0
    var end: Int
    private(set) var notes: [JSONRepairNote] = []
    private(set) var valueEnds: [String: Int] = [:]
    /// Set when the text ended inside a value.
    private(set) var reachedEndInside = false
    private var depth = 0
    private var notedDetails: Set<String> = []
    private static let maximumDepth = 200

    init(_ input: [Unicode.Scalar]) {
        self.input = input
        self.end = input.count
    }

    mutating func note(_ kind: JSONRepairNote.Kind, _ path: String, _ detail: String) {
        notes.append(JSONRepairNote(kind, at: path, detail))
    }

    /// Notes a kind of fix the first time it happens (a single-quoted reply would otherwise note every string).
    mutating func noteOnce(_ kind: JSONRepairNote.Kind, _ path: String, _ detail: String) {
        guard notedDetails.insert(detail).inserted else { return }
        note(kind, path, detail)
    }

    var isAtEnd: Bool { position >= end }
    var current: Unicode.Scalar? { position < end ? input[position] : nil }

    func scalar(at index: Int) -> Unicode.Scalar? { index < end ? input[index] : nil }

    // MARK: Document

    /// Finds the JSON in the reply and parses its first value.
    mutating func parseDocument() -> JSONValue? {
        narrowToFencedBlock()
        guard let start = findStart() else {
            note(.dropped, "", "no JSON object or array found in the reply")
            return nil
        }
        if input[position..<start].contains(where: { !$0.properties.isWhitespace }) {
            note(.fixed, "", "ignored \(start - position) characters of text before the JSON")
        }
        position = start
        switch parseValue(path: "") {
        case .complete(let value):
            valueEnds["$"] = position
            skipTrivia()
            if !isAtEnd {
                note(.fixed, "", "ignored \(end - position) characters after the JSON (text or a second value)")
            }
            return value
        case .unfinished(let partial):
            reachedEndInside = true
            note(.fixed, "", "the reply ended inside the JSON; kept only complete values")
            return partial
        case .missing:
            return nil
        }
    }

    /// Limits parsing to the first ``` fenced block that holds a bracket, when the fence opens before any bracket
    /// (a fence inside a JSON string is content).
    private mutating func narrowToFencedBlock() {
        guard let fence = find("```", from: 0),
            !input[0..<fence].contains(where: { $0 == "{" || $0 == "[" })
        else { return }
        var contentStart = fence + 3
        while contentStart < end, input[contentStart] != "\n" { contentStart += 1 }
        contentStart = min(contentStart + 1, end)
        let closing = find("```", from: contentStart)
        let contentEnd = closing ?? end
        guard input[contentStart..<contentEnd].contains(where: { $0 == "{" || $0 == "[" }) else { return }
        if closing == nil { note(.fixed, "", "the code fence was never closed") }
        position = contentStart
        end = contentEnd
    }

    private func find(_ needle: String, from start: Int) -> Int? {
        let pattern = Array(needle.unicodeScalars)
        var index = start
        while index + pattern.count <= end {
            if Array(input[index..<index + pattern.count]) == pattern { return index }
            index += 1
        }
        return nil
    }

    /// The first `{` or `[` that plausibly opens JSON (braces in prose do not); else the first bracket; else a
    /// bare scalar at the start.
    private func findStart() -> Int? {
        var firstBracket: Int?
        for index in position..<end where input[index] == "{" || input[index] == "[" {
            if firstBracket == nil { firstBracket = index }
            var next = index + 1
            while next < end, input[next].properties.isWhitespace { next += 1 }
            guard let following = scalar(at: next) else { return index }
            if input[index] == "{", Lexicon.quoteClosers[following] != nil || following == "}" { return index }
            if input[index] == "[", Lexicon.opensArrayElement(following) { return index }
        }
        if let firstBracket { return firstBracket }
        var first = position
        while first < end, input[first].properties.isWhitespace { first += 1 }
        guard let scalar = scalar(at: first) else { return nil }
        return Lexicon.quoteClosers[scalar] != nil || Lexicon.startsNumber(scalar) ? first : nil
    }

    // MARK: Values

    mutating func parseValue(path: String) -> ParsedValue {
        skipTrivia()
        guard let scalar = current else { return .unfinished(nil) }
        let parsed: ParsedValue
        switch scalar {
        case "{", "[":
            guard depth < Self.maximumDepth else {
                note(.dropped, path, "nesting deeper than \(Self.maximumDepth) levels")
                return .missing
            }
            depth += 1
            parsed = scalar == "{" ? parseObject(path: path) : parseArray(path: path)
            depth -= 1
        case _ where Lexicon.quoteClosers[scalar] != nil:
            parsed = parseString(path: path, isKey: false).map { .complete(.string($0)) } ?? .unfinished(nil)
        case _ where Lexicon.startsNumber(scalar):
            parsed = parseNumber(path: path)
        case _ where Lexicon.isWordCharacter(scalar):
            parsed = parseBareword(path: path)
        default:
            note(.dropped, path, "unexpected character '\(scalar.escaped(asASCII: true))'")
            position += 1
            return .missing
        }
        if case .complete = parsed { valueEnds[path] = position }
        return parsed
    }

    mutating func parseNumber(path: String) -> ParsedValue {
        let start = position
        while let scalar = current, Lexicon.continuesNumber(scalar) { position += 1 }
        if isAtEnd { return .unfinished(nil) }
        let text = String(String.UnicodeScalarView(input[start..<position]))
        if let scalar = current, !endsNumber(scalar) {
            // `12abc`, `1/3`, `12 USD`: not a number we can trust.
            while let next = current, next != ",", next != "}", next != "]", next != "\n" { position += 1 }
            if isAtEnd { return .unfinished(nil) }
            let text = String(String.UnicodeScalarView(input[start..<position]))
            note(.dropped, path, "number followed by other text ('\(text)')")
            return .missing
        }
        guard let normalized = NumberSyntax.normalized(text) else {
            note(.dropped, path, "malformed number '\(text)'")
            return .missing
        }
        if normalized != text { note(.fixed, path, "number '\(text)' written as \(normalized)") }
        return .complete(.number(normalized))
    }

    /// Whether `scalar` may follow a number: a delimiter, whitespace or a comment.
    private func endsNumber(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case ",", "}", "]", "#": return true
        case "/": return self.scalar(at: position + 1) == "/" || self.scalar(at: position + 1) == "*"
        default: return scalar.properties.isWhitespace
        }
    }

    /// `true`/`false`/`null`, their Python spellings, or unquoted text (kept as a flagged string).
    mutating func parseBareword(path: String) -> ParsedValue {
        let start = position
        while let scalar = current, scalar != ",", scalar != "}", scalar != "]", scalar != "\n" {
            position += 1
        }
        if isAtEnd { return .unfinished(nil) }
        var word = String(String.UnicodeScalarView(input[start..<position]))
        while word.last?.isWhitespace == true { word.removeLast() }
        switch word {
        case "true": return .complete(.bool(true))
        case "false": return .complete(.bool(false))
        case "null": return .complete(.null)
        case "True", "TRUE", "False", "FALSE", "None", "Null", "NULL", "undefined", "nil":
            note(.fixed, path, "literal \(word) read as JSON")
            let lowercased = word.lowercased()
            return .complete(lowercased == "true" ? .bool(true) : lowercased == "false" ? .bool(false) : .null)
        default:
            note(.flagged, path, "unquoted text '\(word)' read as a string")
            return .complete(.string(word))
        }
    }

    // MARK: Trivia

    /// Skips whitespace and comments (`//`, `#`, `/* */`).
    mutating func skipTrivia() {
        while let scalar = current {
            if scalar.properties.isWhitespace || scalar == "\u{FEFF}" {
                position += 1
            } else if scalar == "#" || (scalar == "/" && self.scalar(at: position + 1) == "/") {
                while let next = current, next != "\n" { position += 1 }
            } else if scalar == "/" && self.scalar(at: position + 1) == "*" {
                position += 2
                while !isAtEnd, !(input[position] == "*" && self.scalar(at: position + 1) == "/") { position += 1 }
                position = min(position + 2, end)
            } else {
                return
            }
        }
    }
}
