extension RepairingParser {
    mutating func parseObject(path: String) -> ParsedValue {
        position += 1
        var members: [JSONMember] = []
        while true {
            skipTrivia()
            guard let scalar = current else { return .unfinished(.object(members)) }
            switch scalar {
            case "}":
                position += 1
                return .complete(.object(members))
            case "]", "{", "[":
                // `[{"a": 1]` or `[{"i": 1{"i": 2}]`: the object was never closed; let the array go on.
                note(.fixed, path, "object not closed before '\(scalar)'")
                return .complete(.object(members))
            case ",":
                position += 1
                skipTrivia()
                if let next = current, Lexicon.isDigit(next), case .number = members.last?.value {
                    dropThousandsGroup(after: &members, path: path)
                }
                continue
            default:
                break
            }
            guard let key = parseKey(path: path) else {
                if isAtEnd { return .unfinished(.object(members)) }
                continue
            }
            let memberPath = path.isEmpty ? key : path + "." + key
            skipTrivia()
            if isAtEnd { return .unfinished(.object(members)) }
            if current == ":" || current == "=" {
                position += 1
            } else {
                note(.fixed, memberPath, "missing ':' after the key")
            }
            switch parseValue(path: memberPath) {
            case .complete(let value):
                members.removeAll { $0.key == key }
                members.append(JSONMember(key, value))
            case .unfinished(let partial):
                if let partial {
                    members.removeAll { $0.key == key }
                    members.append(JSONMember(key, partial))
                } else {
                    note(.dropped, memberPath, "unfinished value at the end of the reply")
                }
                return .unfinished(.object(members))
            case .missing:
                skipToDelimiter()
            }
        }
    }

    /// `{"amount": 1,234.56}`: the comma was a thousands separator, so the number before it is not the value.
    private mutating func dropThousandsGroup(after members: inout [JSONMember], path: String) {
        let dropped = members.removeLast()
        let start = position
        while let scalar = current, Lexicon.isDigit(scalar) || scalar == "." || scalar == "," {
            position += 1
        }
        let rest = String(String.UnicodeScalarView(input[start..<position]))
        let memberPath = path.isEmpty ? dropped.key : path + "." + dropped.key
        note(.dropped, memberPath, "ambiguous number \(dropped.value.jsonText()),\(rest) (thousands separator?)")
    }

    /// Reads a quoted or bare key; nil (with a note) when there is none here.
    private mutating func parseKey(path: String) -> String? {
        guard let first = current else { return nil }
        if Lexicon.quoteClosers[first] != nil {
            guard let key = parseString(path: path, isKey: true) else {
                note(.dropped, path, "unfinished key at the end of the reply")
                return nil
            }
            return key
        }
        guard Lexicon.isWordCharacter(first) else {
            note(.dropped, path, "unexpected character '\(first.escaped(asASCII: true))' where a key belongs")
            position += 1
            return nil
        }
        let start = position
        while let next = current, Lexicon.isWordCharacter(next) || next == " " && scalar(at: position + 1) != ":" {
            position += 1
        }
        if isAtEnd {
            note(.dropped, path, "unfinished key at the end of the reply")
            return nil
        }
        var key = String(String.UnicodeScalarView(input[start..<position]))
        while key.last == " " { key.removeLast() }
        note(.fixed, path, "unquoted key '\(key)'")
        return key
    }

    mutating func parseArray(path: String) -> ParsedValue {
        position += 1
        var elements: [JSONValue] = []
        while true {
            skipTrivia()
            guard let scalar = current else { return .unfinished(.array(elements)) }
            switch scalar {
            case "]":
                position += 1
                return .complete(.array(elements))
            case "}":
                // `{"a": ["x"}`: the array was never closed; let the object close.
                note(.fixed, path, "array not closed before '}'")
                return .complete(.array(elements))
            case ",":
                position += 1
                continue
            default:
                break
            }
            let elementPath = "\(path)[\(elements.count)]"
            switch parseValue(path: elementPath) {
            case .complete(let value):
                elements.append(value)
            case .unfinished(let partial):
                if case .array = partial, let partial {
                    elements.append(partial)
                } else {
                    note(.dropped, elementPath, "unfinished element at the end of the reply")
                }
                return .unfinished(.array(elements))
            case .missing:
                skipToDelimiter()
            }
        }
    }

    /// After an unreadable value, skips to the next `,`, `}` or `]`.
    private mutating func skipToDelimiter() {
        while let scalar = current, scalar != ",", scalar != "}", scalar != "]" { position += 1 }
    }
}
