/// Character classes the repairing parser decides by.
enum Lexicon {
    /// Opening quote → closing quote, for straight, single and curly quotes.
    static let quoteClosers: [Unicode.Scalar: Unicode.Scalar] = ["\"": "\"", "'": "'", "“": "”", "‘": "’"]

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    static func startsNumber(_ scalar: Unicode.Scalar) -> Bool {
        isDigit(scalar) || scalar == "-" || scalar == "+" || scalar == "."
    }

    static func continuesNumber(_ scalar: Unicode.Scalar) -> Bool {
        isDigit(scalar) || scalar == "-" || scalar == "+" || scalar == "." || scalar == "e" || scalar == "E"
    }

    /// Letters, digits, `_` and `$`: what unquoted keys and literals are made of.
    static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || isDigit(scalar) || scalar == "_" || scalar == "$"
    }

    /// Whether `scalar`, right after `[`, looks like the start of an element (not prose such as `[sic]`).
    static func opensArrayElement(_ scalar: Unicode.Scalar) -> Bool {
        quoteClosers[scalar] != nil || "{[]tfnTFN".unicodeScalars.contains(scalar) || startsNumber(scalar)
    }
}

/// JSON number syntax, with the small liberties models take (`+1`, `.5`, `007`) normalized away.
enum NumberSyntax {
    /// The number in strict JSON syntax, or nil when `text` is not a number.
    static func normalized(_ text: String) -> String? {
        var rest = Substring(text)
        var sign = ""
        if rest.first == "-" || rest.first == "+" {
            sign = rest.first == "-" ? "-" : ""
            rest = rest.dropFirst()
        }
        let integer = rest.prefix { $0.isASCII && $0.isNumber }
        rest = rest.dropFirst(integer.count)
        var fraction = ""
        if rest.first == "." {
            let digits = rest.dropFirst().prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { return nil }
            fraction = "." + digits
            rest = rest.dropFirst(1 + digits.count)
        }
        guard !integer.isEmpty || !fraction.isEmpty else { return nil }
        var exponent = ""
        if rest.first == "e" || rest.first == "E" {
            var marker = "e"
            rest = rest.dropFirst()
            if rest.first == "-" || rest.first == "+" {
                marker += String(rest.removeFirst())
            }
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty else { return nil }
            exponent = marker + digits
            rest = rest.dropFirst(digits.count)
        }
        guard rest.isEmpty else { return nil }
        var whole = String(integer.drop { $0 == "0" })
        if whole.isEmpty { whole = "0" }
        return sign + whole + fraction + exponent
    }
}
