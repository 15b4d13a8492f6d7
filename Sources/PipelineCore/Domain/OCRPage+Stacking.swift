extension OCRPage {
    /// Pages read one by one, laid one below the other as one page, the way a PDF's pages are rendered for the
    /// reading of a receipt of several pages (`ProcessedImage.pageStarts`): each page's boxes scaled so that it spans
    /// its share of the height and moved down to where it starts; the first page keeps its own scale. The header
    /// reading is the first page's (the top of the whole); the confidence is the mean over the pages' words.
    /// - Parameters:
    ///   - pages: the pages in order, each in its own coordinates.
    ///   - starts: where each page starts, as a fraction of the whole height from the top (`PDFPages.pageStarts`).
    /// - Returns: the page of them all; nil when `starts` does not give one start per page, in order.
    public static func stacking(_ pages: [OCRPage], starts: [Double]) -> OCRPage? {
        guard let first = pages.first, starts.count == pages.count, starts.first == 0,
            zip(starts, starts.dropFirst()).allSatisfy({ $0 < $1 && $1 < 1 })
        else { return nil }
        guard pages.count > 1 else { return first }
        // The whole height in the first page's scale.
        let height = Double(first.height) / starts[1]
        var lines: [OCRLine] = []
        var headerLines: [OCRLine] = []
        var width = 0
        for (index, page) in pages.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1] : 1
            let scale = (end - starts[index]) * height / Double(max(page.height, 1))
            let place = { (box: BoundingBox) in
                BoundingBox(
                    left: Int((Double(box.left) * scale).rounded()),
                    top: Int((starts[index] * height + Double(box.top) * scale).rounded()),
                    width: Int((Double(box.width) * scale).rounded()),
                    height: Int((Double(box.height) * scale).rounded()))
            }
            let moved = { (line: OCRLine) in
                OCRLine(
                    words: line.words.map { OCRWord(text: $0.text, confidence: $0.confidence, box: place($0.box)) },
                    box: place(line.box))
            }
            lines += page.lines.map(moved)
            if index == 0 { headerLines = page.headerLines.map(moved) }
            width = max(width, Int((Double(page.width) * scale).rounded()))
        }
        let wordCounts = pages.map { $0.lines.reduce(0) { $0 + $1.words.count } }
        let words = wordCounts.reduce(0, +)
        let confidence =
            words == 0
            ? 0 : zip(pages, wordCounts).reduce(0.0) { $0 + $1.0.meanConfidence * Double($1.1) } / Double(words)
        return OCRPage(
            lines: lines, headerLines: headerLines, width: width, height: Int(height.rounded()),
            meanConfidence: confidence)
    }
}
