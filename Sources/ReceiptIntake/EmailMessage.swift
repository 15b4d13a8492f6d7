import Foundation
import PipelineCore

/// An e-mail as a source of receipts: who sent it, when, about what, and the receipts it carries — each image or
/// PDF attachment, or, when there is none, its body when that reads like a receipt.
public struct EmailMessage: Sendable {
    /// One file attached to the message that the pipeline reads (an image or a PDF, by its content).
    public struct Attachment: Sendable {
        public var fileName: String
        public var format: ImageFormat
        public var bytes: [UInt8]
    }

    /// The `From` header as written (name and address).
    public var sender: String
    public var subject: String
    /// The `Date` header; nil when missing or unreadable.
    public var sentAt: Date?
    /// The message's identity: its `Message-ID`, or a digest of its bytes when it has none (computed by the caller).
    public var messageID: String?
    public var attachments: [Attachment]
    /// The body as lines of text (the text part, else the HTML part reduced to lines).
    public var bodyLines: [String]

    /// Reads a whole message.
    public init(parsing bytes: [UInt8]) {
        let root = MIMEPart(parsing: bytes)
        sender = root.header("from") ?? ""
        subject = root.header("subject") ?? ""
        sentAt = root.header("date").flatMap(Self.date)
        messageID = root.header("message-id").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "<> ")) }
            .flatMap { $0.isEmpty ? nil : $0 }
        var attachments: [Attachment] = []
        var plain: [String] = []
        var html: [String] = []
        for (index, part) in root.leaves.enumerated() {
            if case .supported(let format) = detectImageFormat(leadingBytes: part.body.prefix(imageSignatureLength)),
                !part.mediaType.hasPrefix("text/")
            {
                attachments.append(
                    Attachment(fileName: part.fileName ?? "attachment-\(index + 1)", format: format, bytes: part.body))
            } else if part.fileName == nil
                || part.header("content-disposition")?.lowercased().hasPrefix("inline") == true
            {
                switch part.mediaType {
                case "text/plain": plain += TextLines.lines(of: part.text)
                case "text/html": html += TextLines.lines(ofHTML: part.text)
                default: break
                }
            }
        }
        self.attachments = attachments
        bodyLines = plain.isEmpty ? html : plain
    }

    /// Whether the body reads like a receipt: some line holds a total word and an amount with cents.
    public var bodyLooksLikeReceipt: Bool {
        bodyLines.contains { line in
            let lower = line.lowercased()
            return Self.totalWords.contains { lower.contains($0) }
                && lower.range(of: #"\d[.,]\d{2}\b"#, options: .regularExpression) != nil
        }
    }

    /// Words that introduce the amount paid, in the languages receipts here are mailed in.
    static let totalWords = [
        "total", "amount due", "amount paid", "amount charged", "you paid", "balance due", "summe", "gesamt",
        "montant", "importe", "totale",
    ]

    /// Whether `bytes` start like an RFC 5322 message: header fields from the first line, with `From` and one of
    /// `Date`, `Message-ID`, `MIME-Version`, `Received` or `Subject` among them.
    public static func looksLikeEmail(_ bytes: some Collection<UInt8>) -> Bool {
        let head = String(decoding: bytes.prefix(16_384), as: UTF8.self)
        let lines = TextLines.split(head).prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        guard let first = lines.first, first.range(of: #"^[!-9;-~]+:"#, options: .regularExpression) != nil else {
            return false
        }
        let names = Set(lines.compactMap { $0.split(separator: ":").first?.lowercased() })
        return names.contains("from")
            && !names.isDisjoint(with: ["date", "message-id", "mime-version", "received", "subject"])
    }

    private static func date(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let cleaned = text.replacingOccurrences(of: #"\s*\([^)]*\)\s*$"#, with: "", options: .regularExpression)
        for format in ["EEE, d MMM yyyy HH:mm:ss Z", "d MMM yyyy HH:mm:ss Z", "EEE, d MMM yyyy HH:mm Z"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: cleaned) { return date }
        }
        return nil
    }
}

/// Message bodies as receipt lines.
enum TextLines {
    /// The lines of `text` at each line feed, a carriage return before it dropped. (Swift reads "\r\n" as one
    /// character, so splitting the characters at "\n" would find no line in a CRLF message.)
    static func split(_ text: String) -> [String] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(String.UnicodeScalarView(line.last == "\r" ? line.dropLast() : line[...]))
        }
    }

    /// Non-empty lines, spaces collapsed.
    static func lines(of text: String) -> [String] {
        split(text)
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .filter { !$0.isEmpty }
    }

    /// HTML reduced to lines: scripts and styles dropped, block ends and `<br>` break lines, table cells of a row stay
    /// on one line, tags removed, entities decoded.
    static func lines(ofHTML html: String) -> [String] {
        var text = html
        let rules: [(String, String)] = [
            (#"(?is)<(script|style|head)\b.*?</\1\s*>"#, " "), (#"(?s)<!--.*?-->"#, " "),
            (#"(?i)<br\s*/?>"#, "\n"), (#"(?i)</(p|div|tr|li|h[1-6]|table|section|header|footer)\s*>"#, "\n"),
            (#"(?i)<(hr|tr)\b[^>]*>"#, "\n"), (#"(?i)</t[dh]\s*>"#, " "), (#"(?s)<[^>]*>"#, ""),
        ]
        for (pattern, replacement) in rules {
            text = text.replacingOccurrences(of: pattern, with: replacement, options: .regularExpression)
        }
        return lines(of: entitiesDecoded(text))
    }

    private static func entitiesDecoded(_ text: String) -> String {
        let named = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "euro": "€", "pound": "£",
            "yen": "¥", "copy": "©", "reg": "®", "times": "×", "ndash": "–", "mdash": "—",
        ]
        guard let expression = try? NSRegularExpression(pattern: #"&(#[0-9]+|#[xX][0-9a-fA-F]+|[a-zA-Z]+);"#) else {
            return text
        }
        let source = text as NSString
        var output = ""
        var cursor = 0
        for match in expression.matches(in: text, range: NSRange(location: 0, length: source.length)) {
            output += source.substring(with: NSRange(location: cursor, length: match.range.location - cursor))
            let entity = source.substring(with: match.range(at: 1))
            var decoded: String?
            if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
                decoded = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map {
                    String(Character($0))
                }
            } else if entity.hasPrefix("#") {
                decoded = UInt32(entity.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else {
                decoded = named[entity.lowercased()]
            }
            output += decoded ?? source.substring(with: match.range)
            cursor = match.range.location + match.range.length
        }
        return output + source.substring(from: cursor)
    }
}
