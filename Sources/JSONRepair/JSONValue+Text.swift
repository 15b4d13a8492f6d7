extension JSONValue {
    /// The value as JSON text: compact, or indented by `indent` spaces per level.
    public func jsonText(indent: Int? = nil) -> String {
        var output = ""
        write(to: &output, indent: indent, level: 0)
        return output
    }

    private func write(to output: inout String, indent: Int?, level: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .number(let text): output += text
        case .string(let text): output += Self.quoted(text)
        case .array(let elements):
            writeContainer(
                elements, open: "[", close: "]", to: &output, indent: indent, level: level
            ) { element, output in
                element.write(to: &output, indent: indent, level: level + 1)
            }
        case .object(let members):
            writeContainer(
                members, open: "{", close: "}", to: &output, indent: indent, level: level
            ) { member, output in
                output += Self.quoted(member.key) + (indent == nil ? ":" : ": ")
                member.value.write(to: &output, indent: indent, level: level + 1)
            }
        }
    }

    private func writeContainer<Element>(
        _ children: [Element], open: String, close: String, to output: inout String, indent: Int?, level: Int,
        writeChild: (Element, inout String) -> Void
    ) {
        output += open
        guard !children.isEmpty else {
            output += close
            return
        }
        let newline = indent.map { "\n" + String(repeating: " ", count: $0 * (level + 1)) } ?? ""
        for (index, child) in children.enumerated() {
            if index > 0 { output += "," }
            output += newline
            writeChild(child, &output)
        }
        output += indent.map { "\n" + String(repeating: " ", count: $0 * level) } ?? ""
        output += close
    }

    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
