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
        let lines = Self.read(page.lines)
        let wholeUnits = Self.printsWholeUnits(lines)
        self.lines = wholeUnits ? lines.map { $0.withGroupedWholesAsMoney() } : lines
        headerLines = Self.read(page.headerLines).map { wholeUnits ? $0.withGroupedWholesAsMoney() : $0 }
    }

    private static func read(_ lines: [OCRLine]) -> [ReceiptLine] {
        lines.enumerated().map { ReceiptLine(index: $0.offset, line: $0.element) }
    }

    /// Whether the page prints its money in whole units, in thousands groups (`Nasi Goreng 25,000`, `Total 197,285`:
    /// rupiah, dong, won, yen): at least `wholeUnitAmounts` such numbers and none with decimals, grouped with commas,
    /// or with points or spaces on a page whose currency has no minor units in use (`wholeUnitCurrencies`) or that is
    /// worded in Malay or Indonesian (`TUNAI`, `KEMBALI`, `PAJAK`: ringgit prices have sen, so whole numbers there are
    /// rupiah): `6.900` is also a price in rials or dinars, which have three decimals. Such a page's grouped numbers
    /// are its money; on any other page a grouped number is not money, as before.
    static func printsWholeUnits(_ lines: [ReceiptLine]) -> Bool {
        let amounts = lines.flatMap(\.amounts)
        let marks = amounts.compactMap(\.wholeGroupMark)
        guard !amounts.contains(where: \.isMoney), marks.count >= wholeUnitAmounts else { return false }
        return marks.allSatisfy { $0 == "," }
            || CurrencyDetector.detect(lines: lines.map(\.text)).map { wholeUnitCurrencies.contains($0.code) } == true
            || lines.contains { KeywordLexicon.languages(letters: $0.letters, tokens: $0.tokens).contains(.malay) }
    }

    /// Currencies whose prices are printed without minor units.
    static let wholeUnitCurrencies: Set<String> = ["IDR", "VND", "KRW", "JPY"]

    /// The fewest grouped whole numbers that say a page prints its money in whole units: a price, a subtotal and a
    /// total.
    static let wholeUnitAmounts = 3
}
