extension String {
    /// The text with control characters written as escapes (`\x0A` for a newline, `\u{85}` for C1 controls), so a
    /// file name printed in a summary, a report or a log line cannot break the line, forge another line or move
    /// the cursor. Every file name shown to people goes through here. Backslashes stay as they are, so escaping
    /// twice changes nothing (names already stored escaped print the same).
    package var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.isControl) else { return self }
        var escaped = ""
        for scalar in unicodeScalars {
            if !scalar.isControl {
                escaped.unicodeScalars.append(scalar)
            } else if scalar.value < 0x80 {
                escaped += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16, uppercase: true)
            } else {
                escaped += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return escaped
    }
}

extension Unicode.Scalar {
    /// C0 controls, DEL and C1 controls (general category Cc).
    fileprivate var isControl: Bool { properties.generalCategory == .control }
}
