/// An OCR page read into receipt lines once (each line's text forms, keyword role and amounts): the rules
/// extraction reads it, and the LLM merge checks the model's values against the same lines instead of reading the
/// page again.
public struct ReceiptPage: Sendable {
    public let page: OCRPage
    let lines: [ReceiptLine]
    /// The header pass's lines (`OCRPage.headerLines`), read the same way.
    let headerLines: [ReceiptLine]

    public init(_ page: OCRPage) {
        self.page = page
        lines = Self.read(page.lines)
        headerLines = Self.read(page.headerLines)
    }

    private static func read(_ lines: [OCRLine]) -> [ReceiptLine] {
        lines.enumerated().map { ReceiptLine(index: $0.offset, line: $0.element) }
    }
}
