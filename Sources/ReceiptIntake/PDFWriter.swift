import Foundation

/// A minimal PDF writer: pages of Courier text at given positions. It turns an e-mail body that reads like a
/// receipt into a born-digital PDF, so it goes down the one PDF path (text layer as the page, a rendered page for
/// review and the LLM); the tests make receipt PDFs with it.
public enum PDFWriter {
    /// One line of text at `x` points from the left and `y` points from the top of its page (top of the line).
    public struct Text: Sendable {
        public var x: Double
        public var y: Double
        public var text: String

        public init(x: Double, y: Double, _ text: String) {
            self.x = x
            self.y = y
            self.text = text
        }
    }

    /// One page: its size in points and its text.
    public struct Page: Sendable {
        public var width: Double
        public var height: Double
        public var texts: [Text]

        public init(width: Double, height: Double, texts: [Text] = []) {
            self.width = width
            self.height = height
            self.texts = texts
        }
    }

    /// Font size, in points; Courier's glyphs are 0.6 of it wide.
    public static let fontSize = 9.0
    /// Baseline to baseline.
    public static let lineHeight = fontSize * 1.4
    /// Lines of a text page at most (a longer body is cut).
    public static let maximumLines = 600

    /// One page holding `lines` top to bottom, as wide as the longest line.
    public static func textPage(_ lines: [String]) -> Page {
        let kept = Array(lines.prefix(maximumLines))
        let margin = 10.0
        let longest = Double(kept.map(\.count).max() ?? 1)
        return Page(
            width: max(144, longest * fontSize * 0.6 + 2 * margin),
            height: Double(kept.count) * lineHeight + 2 * margin,
            texts: kept.enumerated().map { Text(x: margin, y: margin + Double($0.offset) * lineHeight, $0.element) })
    }

    /// The PDF of `pages`. Text is written in Windows-1252 (WinAnsi); other characters become `?`.
    public static func document(_ pages: [Page]) -> [UInt8] {
        // 1: catalog, 2: page tree, 3: font; then per page its page object and content stream.
        var objects: [[UInt8]] = []
        objects.append(Array("<< /Type /Catalog /Pages 2 0 R >>".utf8))
        let kids = pages.indices.map { "\(4 + 2 * $0) 0 R" }.joined(separator: " ")
        objects.append(Array("<< /Type /Pages /Kids [\(kids)] /Count \(pages.count) >>".utf8))
        objects.append(Array("<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>".utf8))
        for (index, page) in pages.enumerated() {
            var content: [UInt8] = []
            for text in page.texts {
                let baseline = page.height - text.y - fontSize
                content += Array(
                    "BT /F1 \(number(fontSize)) Tf 1 0 0 1 \(number(text.x)) \(number(baseline)) Tm (".utf8)
                content += escaped(text.text)
                content += Array(") Tj ET\n".utf8)
            }
            objects.append(
                Array(
                    ("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(number(page.width)) \(number(page.height))] "
                        + "/Resources << /Font << /F1 3 0 R >> >> /Contents \(5 + 2 * index) 0 R >>").utf8))
            objects.append(Array("<< /Length \(content.count) >>\nstream\n".utf8) + content + Array("endstream".utf8))
        }
        var output = Array("%PDF-1.4\n".utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(output.count)
            output += Array("\(index + 1) 0 obj\n".utf8) + object + Array("\nendobj\n".utf8)
        }
        let xref = output.count
        var table = "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets {
            let digits = String(offset)
            table += String(repeating: "0", count: max(0, 10 - digits.count)) + digits + " 00000 n \n"
        }
        table += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return output + Array(table.utf8)
    }

    private static func number(_ value: Double) -> String { String(format: "%.2f", value) }

    /// A PDF string's bytes: Windows-1252, with `\`, `(` and `)` escaped.
    private static func escaped(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        for character in text {
            let encoded = String(character).data(using: .windowsCP1252).map { [UInt8]($0) } ?? [UInt8(ascii: "?")]
            for byte in encoded {
                if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: ")") {
                    bytes.append(UInt8(ascii: "\\"))
                }
                bytes.append(byte < 0x20 ? UInt8(ascii: " ") : byte)
            }
        }
        return bytes
    }
}
