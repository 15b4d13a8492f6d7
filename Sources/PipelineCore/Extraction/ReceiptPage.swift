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
        let bareWholes = !wholeUnits && Self.printsBareWholeUnits(lines)
        func asMoney(_ line: ReceiptLine) -> ReceiptLine {
            wholeUnits ? line.withGroupedWholesAsMoney() : bareWholes ? line.withEndingWholeAsMoney() : line
        }
        self.lines = lines.map(asMoney)
        headerLines = Self.read(page.headerLines).map(asMoney)
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

    /// Whether the page prints its money as bare whole numbers (`Grand Total 2545`, `TOTAL XPF 12312`, `Total Due
    /// 20000`): no amount on it has decimals or thousands groups (`10.400` may be rials), a total line ends in a whole
    /// number, `wholeUnitAmounts` lines or more end in one, and no currency with minor units is named (none, or one
    /// of `wholeUnitCurrencies`). A page in ringgit, dollars or euros printed without decimals has lost its decimal
    /// points to OCR (Tesseract's `RM 64 13` for 64.15), so its whole numbers stay unread. Such a page's numbers
    /// that end a line are its money.
    static func printsBareWholeUnits(_ lines: [ReceiptLine]) -> Bool {
        guard !lines.contains(where: { !$0.moneyAmounts.isEmpty }),
            !lines.contains(where: { $0.amounts.contains { $0.wholeGroupMark != nil } }),
            lines.contains(where: { $0.role == .total && $0.endingAmount != nil }),
            lines.filter({ $0.endingAmount != nil }).count >= wholeUnitAmounts
        else { return false }
        return CurrencyDetector.detect(lines: lines.map(\.text)).map { wholeUnitCurrencies.contains($0.code) } ?? true
    }

    /// Currencies whose prices are printed without minor units.
    static let wholeUnitCurrencies: Set<String> = ["IDR", "VND", "KRW", "JPY"]

    /// The fewest grouped whole numbers that say a page prints its money in whole units: a price, a subtotal and a
    /// total.
    static let wholeUnitAmounts = 3
}
