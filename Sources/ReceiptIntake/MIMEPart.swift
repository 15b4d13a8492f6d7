import Foundation

/// One header field of a message or part, its value unfolded and its RFC 2047 encoded words decoded.
public struct MIMEHeader: Sendable, Equatable {
    public var name: String
    public var value: String
}

/// One MIME entity of an e-mail: its headers and either its body (transfer encoding removed) or its parts.
///
/// Parsing is small and forgiving (RFC 5322 headers, RFC 2045 base64 and quoted-printable, RFC 2046 multipart,
/// RFC 2047 encoded words, RFC 2231 file names): what cannot be read is left out, never guessed.
public struct MIMEPart: Sendable {
    public var headers: [MIMEHeader]
    /// The body with its transfer encoding removed; empty for a multipart entity.
    public var body: [UInt8]
    /// The parts of a multipart entity, in order.
    public var parts: [MIMEPart]

    /// Multipart nesting deeper than this is not followed (a message that nests without end is not a receipt).
    static let maximumDepth = 16

    /// Parses a whole message or part.
    public init(parsing bytes: [UInt8]) {
        self.init(bytes[...], depth: 0)
    }

    init(_ bytes: ArraySlice<UInt8>, depth: Int) {
        let (head, rawBody) = Self.splitHead(bytes)
        headers = Self.headers(head)
        parts = []
        body = []
        let type = Self.mediaType(headers)
        if type.hasPrefix("multipart/"), depth < Self.maximumDepth,
            let boundary = Self.parameter("boundary", in: header("content-type") ?? "")
        {
            parts = Self.split(rawBody, boundary: boundary).map { MIMEPart($0, depth: depth + 1) }
        } else {
            body = TransferDecoding.decode(rawBody, encoding: header("content-transfer-encoding") ?? "")
        }
    }

    /// The first header of that name (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The media type in lowercase (`text/plain`, `application/pdf`); `text/plain` when none is given.
    public var mediaType: String { Self.mediaType(headers) }

    /// The file name from `Content-Disposition` or, failing that, `Content-Type`'s `name`.
    public var fileName: String? {
        Self.parameter("filename", in: header("content-disposition") ?? "")
            ?? Self.parameter("name", in: header("content-type") ?? "")
    }

    /// A text body in its declared charset (UTF-8 when none; Latin-1 when the bytes are not valid in it).
    public var text: String {
        let charset = Self.parameter("charset", in: header("content-type") ?? "")?.lowercased() ?? "utf-8"
        return Charset.decode(body, charset: charset)
    }

    /// Every leaf part, depth first (the part itself when it is not multipart).
    public var leaves: [MIMEPart] { parts.isEmpty ? [self] : parts.flatMap(\.leaves) }

    // MARK: - Parsing

    private static func mediaType(_ headers: [MIMEHeader]) -> String {
        let value = headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
        let type = value.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return type.flatMap { $0.contains("/") ? $0 : nil } ?? "text/plain"
    }

    /// Splits at the first empty line; a message with no empty line is all head.
    private static func splitHead(_ bytes: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) {
        var index = bytes.startIndex
        var lineStart = index
        while index < bytes.endIndex {
            if bytes[index] == 0x0A {
                let line = bytes[lineStart..<index]
                if line.isEmpty || line == [0x0D] {
                    return (bytes[bytes.startIndex..<lineStart], bytes[(index + 1)...])
                }
                lineStart = index + 1
            }
            index += 1
        }
        return (bytes, [])
    }

    private static func headers(_ head: ArraySlice<UInt8>) -> [MIMEHeader] {
        var fields: [MIMEHeader] = []
        for line in TextLines.split(Charset.decode(Array(head), charset: "utf-8")) {
            if let first = line.first, first == " " || first == "\t", !fields.isEmpty {
                fields[fields.count - 1].value += " " + line.trimmingCharacters(in: .whitespaces)
            } else if let colon = line.firstIndex(of: ":") {
                let name = line[..<colon].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty, !name.contains(" ") else { continue }
                fields.append(
                    MIMEHeader(
                        name: name, value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        return fields.map { MIMEHeader(name: $0.name, value: EncodedWords.decode($0.value)) }
    }

    /// A parameter of a structured header (`name="x"`, `name=x`, or RFC 2231 `name*=charset''percent-encoded`).
    static func parameter(_ name: String, in value: String) -> String? {
        for piece in value.split(separator: ";").dropFirst() {
            guard let equals = piece.firstIndex(of: "=") else { continue }
            let key = piece[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            var raw = piece[piece.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if raw.hasPrefix("\""), raw.hasSuffix("\""), raw.count >= 2 { raw = String(raw.dropFirst().dropLast()) }
            if key == name.lowercased() { return raw }
            if key == name.lowercased() + "*", let quote = raw.range(of: "''") {
                let charset = raw[..<quote.lowerBound].lowercased()
                return Charset.decode(Array(percentDecoded(raw[quote.upperBound...])), charset: charset)
            }
        }
        return nil
    }

    private static func percentDecoded(_ text: Substring) -> [UInt8] {
        var output: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "%"), bytes.count >= 2,
                let value = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16)
            {
                output.append(value)
                bytes = bytes.dropFirst(2)
            } else {
                output.append(byte)
            }
        }
        return output
    }

    /// The parts between `--boundary` lines, up to `--boundary--`.
    private static func split(_ body: ArraySlice<UInt8>, boundary: String) -> [ArraySlice<UInt8>] {
        let delimiter = Array(("--" + boundary).utf8)
        var parts: [ArraySlice<UInt8>] = []
        var partStart: Int?
        var lineStart = body.startIndex
        while lineStart < body.endIndex {
            let lineEnd = body[lineStart...].firstIndex(of: 0x0A) ?? body.endIndex
            let line = body[lineStart..<lineEnd]
            if line.starts(with: delimiter) {
                if let start = partStart {
                    // The line break before the delimiter belongs to the delimiter.
                    var end = lineStart
                    if end > start, body[end - 1] == 0x0A { end -= 1 }
                    if end > start, body[end - 1] == 0x0D { end -= 1 }
                    parts.append(body[start..<end])
                }
                if line.dropFirst(delimiter.count).starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) { break }
                partStart = min(lineEnd + 1, body.endIndex)
            }
            lineStart = lineEnd + 1
        }
        return parts
    }
}

/// RFC 2045 content transfer encodings.
enum TransferDecoding {
    static func decode(_ body: ArraySlice<UInt8>, encoding: String) -> [UInt8] {
        switch encoding.trimmingCharacters(in: .whitespaces).lowercased() {
        case "base64": return base64(body)
        case "quoted-printable": return quotedPrintable(body, underscoreIsSpace: false)
        default: return Array(body)
        }
    }

    /// Base64, ignoring line breaks and anything outside the alphabet; nothing when it does not decode.
    static func base64(_ body: some Collection<UInt8>) -> [UInt8] {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var clean = body.filter { alphabet.contains($0) }
        while clean.count % 4 != 0 { clean.append(UInt8(ascii: "=")) }
        return Data(base64Encoded: Data(clean)).map { [UInt8]($0) } ?? []
    }

    /// Quoted-printable: `=XX` bytes, `=` at a line end joins lines; in encoded words `_` is a space.
    static func quotedPrintable(_ body: some Collection<UInt8>, underscoreIsSpace: Bool) -> [UInt8] {
        var output: [UInt8] = []
        var bytes = Array(body)[...]
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "=") {
                if bytes.first == 0x0D, bytes.dropFirst().first == 0x0A {
                    bytes = bytes.dropFirst(2)
                } else if bytes.first == 0x0A {
                    bytes = bytes.dropFirst()
                } else if bytes.count >= 2,
                    let value = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16)
                {
                    output.append(value)
                    bytes = bytes.dropFirst(2)
                } else {
                    output.append(byte)
                }
            } else {
                output.append(underscoreIsSpace && byte == UInt8(ascii: "_") ? UInt8(ascii: " ") : byte)
            }
        }
        return output
    }
}

/// RFC 2047 encoded words in header values: `=?charset?B?…?=` and `=?charset?Q?…?=`.
enum EncodedWords {
    static func decode(_ value: String) -> String {
        guard value.contains("=?") else { return value }
        let pattern = #"=\?([^?]+)\?([BbQq])\?([^?]*)\?="#
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return value }
        let source = value as NSString
        var output = ""
        var cursor = 0
        var previousWasEncoded = false
        for match in expression.matches(in: value, range: NSRange(location: 0, length: source.length)) {
            let between = source.substring(with: NSRange(location: cursor, length: match.range.location - cursor))
            // Whitespace between two encoded words is not part of the text.
            if !(previousWasEncoded && between.trimmingCharacters(in: .whitespaces).isEmpty) { output += between }
            let charset = source.substring(with: match.range(at: 1)).lowercased()
            let encoding = source.substring(with: match.range(at: 2)).uppercased()
            let text = Array(source.substring(with: match.range(at: 3)).utf8)
            let bytes =
                encoding == "B"
                ? TransferDecoding.base64(text) : TransferDecoding.quotedPrintable(text, underscoreIsSpace: true)
            output += Charset.decode(bytes, charset: charset.split(separator: "*").first.map(String.init) ?? charset)
            cursor = match.range.location + match.range.length
            previousWasEncoded = true
        }
        output += source.substring(from: cursor)
        return output
    }
}

/// The charsets receipts are mailed in.
enum Charset {
    /// Decodes `bytes`; unknown charsets and invalid UTF-8 fall back to Latin-1 (which decodes every byte).
    static func decode(_ bytes: [UInt8], charset: String) -> String {
        let encoding: String.Encoding =
            switch charset {
            case "us-ascii", "ascii": .ascii
            case "iso-8859-1", "latin1", "iso-8859-15": .isoLatin1
            case "windows-1252", "cp1252": .windowsCP1252
            default: .utf8
            }
        return String(bytes: bytes, encoding: encoding) ?? String(bytes: bytes, encoding: .isoLatin1) ?? ""
    }
}
