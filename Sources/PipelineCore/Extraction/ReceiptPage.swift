/// An OCR page read into receipt lines once (each line's text forms, keyword role and amounts): the rules
/// extraction reads it, and the LLM merge checks the model's values against the same lines instead of reading the
/// page again.
public struct ReceiptPage: Sendable {
    public let page: OCRPage
    /// What read the page (the trust models of that reader weigh the fields read from it).
    public let reader: PageReader
    let lines: [ReceiptLine]
    /// The header pass's lines (`OCRPage.headerLines`), read the same way.
    let headerLines: [ReceiptLine]

    /// - Parameter reader: the engine that read `page`; PP-OCR, the default engine, unless told.
    public init(_ page: OCRPage, reader: PageReader = .ppocr) {
        self.page = page
        self.reader = reader
        lines = Self.read(page.lines)
        headerLines = Self.read(page.headerLines)
    }

    private static func read(_ lines: [OCRLine]) -> [ReceiptLine] {
        lines.enumerated().map { ReceiptLine(index: $0.offset, line: $0.element) }
    }
}
