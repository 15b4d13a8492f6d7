extension RepairingParser {
    /// Reads a quoted string starting at its opening quote; nil when the text ends inside it (dropped, never
    /// completed).
    mutating func parseString(path: String, isKey: Bool) -> String? {
        let opening = input[position]
        guard let closer = Lexicon.quoteClosers[opening] else { return nil }
        if opening != "\"" { noteOnce(.fixed, path, "string quoted with \(opening) instead of \"") }
        position += 1
        var text = String.UnicodeScalarView()
        while let scalar = current {
            switch scalar {
            case "\\":
                guard let escaped = parseEscape(path: path) else { return nil }
                text.append(escaped)
            case _ where scalar == closer || (closer == "”" && scalar == "\""):
                if isClosingQuote(isKey: isKey) {
                    position += 1
                    return String(text)
                }
                noteOnce(.fixed, path, "unescaped quote inside a string")
                text.append(scalar)
                position += 1
            case "\n", "\r":
                if !isKey, nextLineStartsMember() {
                    note(.flagged, path, "string not closed before the line break; ended it there")
                    return String(text)
                }
                noteOnce(.fixed, path, "raw line break inside a string")
                text.append(scalar)
                position += 1
            default:
                text.append(scalar)
                position += 1
            }
        }
        return nil
    }

    /// Whether the quote at `position` closes the string, judged by what follows it.
    private func isClosingQuote(isKey: Bool) -> Bool {
        if input[position] == "”" { return true }
        var next = position + 1
        skipTrivia(&next)
        guard let following = scalar(at: next) else { return true }
        if isKey { return following == ":" || following == "," || following == "}" }
        switch following {
        case "}", "]", ":", "\"", "`": return true
        case ",":
            next += 1
            skipTrivia(&next)
            guard let afterComma = scalar(at: next) else { return true }
            return !Lexicon.isWordCharacter(afterComma) || Lexicon.isDigit(afterComma)
                || isWordFollowedByColon(at: next)
        default:
            return false
        }
    }

    /// `"note": "first line` + newline + `  "next": …`: the next line opens a member, so the quote was missing.
    private func nextLineStartsMember() -> Bool {
        var next = position
        skipWhitespace(&next)
        guard scalar(at: next) == "\"" else { return false }
        next += 1
        while let scalar = scalar(at: next), scalar != "\"", scalar != "\n" { next += 1 }
        guard scalar(at: next) == "\"" else { return false }
        next += 1
        skipWhitespace(&next)
        return scalar(at: next) == ":"
    }

    private func isWordFollowedByColon(at start: Int) -> Bool {
        var next = start
        while let scalar = scalar(at: next), Lexicon.isWordCharacter(scalar) { next += 1 }
        let word = String(String.UnicodeScalarView(input[start..<next]))
        if ["true", "false", "null", "True", "False", "None"].contains(word) { return true }
        skipWhitespace(&next)
        return scalar(at: next) == ":"
    }

    private func skipWhitespace(_ index: inout Int) {
        while let scalar = scalar(at: index), scalar.properties.isWhitespace { index += 1 }
    }

    /// Skips whitespace and comments from `index` without moving the parser.
    private func skipTrivia(_ index: inout Int) {
        var copy = self
        copy.position = index
        copy.skipTrivia()
        index = copy.position
    }

    /// Reads the escape at `position` (a backslash); nil when the text ends inside it.
    private mutating func parseEscape(path: String) -> Unicode.Scalar? {
        guard let kind = scalar(at: position + 1) else { return nil }
        position += 2
        switch kind {
        case "b": return "\u{08}"
        case "f": return "\u{0C}"
        case "n": return "\n"
        case "r": return "\r"
        case "t": return "\t"
        case "u": return parseUnicodeEscape(path: path)
        case "\"", "\\", "/", "'": return kind
        default:
            noteOnce(.fixed, path, "unknown escape '\\\(kind)' read as '\(kind)'")
            return kind
        }
    }

    /// Reads the four hex digits after `\u` (and the low half of a surrogate pair); nil when the text ends inside.
    private mutating func parseUnicodeEscape(path: String) -> Unicode.Scalar? {
        guard let high = readHex(at: position) else {
            if position + 4 > end { return nil }
            noteOnce(.flagged, path, "invalid \\u escape kept as text")
            return "u"
        }
        position += 4
        switch high {
        case 0xD800...0xDBFF:
            if position + 6 > end,
                Array(input[position..<end]).starts(with: Array("\\u".unicodeScalars).prefix(end - position))
            {
                return nil
            }
            if scalar(at: position) == "\\", scalar(at: position + 1) == "u", let low = readHex(at: position + 2),
                (0xDC00...0xDFFF).contains(low)
            {
                position += 6
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            }
            fallthrough
        case 0xDC00...0xDFFF:
            noteOnce(.flagged, path, "lone surrogate escape replaced by U+FFFD")
            return "\u{FFFD}"
        default:
            return Unicode.Scalar(high)
        }
    }

    private func readHex(at start: Int) -> UInt32? {
        guard start + 4 <= end else { return nil }
        var value: UInt32 = 0
        for scalar in input[start..<start + 4] {
            guard let digit = asciiDigit(scalar) ?? hexLetterValue(scalar) else {
                return nil
            }
            value = value * 16 + digit
        }
        return value
    }

    private func asciiDigit(_ scalar: Unicode.Scalar) -> UInt32? {
        Lexicon.isDigit(scalar) ? scalar.value - 48 : nil
    }

    private func hexLetterValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar {
        case "a"..."f": scalar.value - 87
        case "A"..."F": scalar.value - 55
        default: nil
        }
    }
}
