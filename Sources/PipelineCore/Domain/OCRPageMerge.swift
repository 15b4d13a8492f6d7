/// Combines the pages two OCR engines read from one image.
public enum OCRPageMerge {
    /// `primary`'s lines, then each of `secondary`'s lines that holds a token `primary` never read (three or more
    /// letters and digits, or any token with a digit, found nowhere in `primary`'s letters and digits run
    /// together, so that `GBP6.40` matches `GBP 6.40`), its boxes scaled into `primary`'s coordinates.
    public static func supplement(_ primary: OCRPage, with secondary: OCRPage) -> OCRPage {
        let known = normalized(primary.text)
        let scaleX = secondary.width > 0 ? Double(primary.width) / Double(secondary.width) : 1
        let scaleY = secondary.height > 0 ? Double(primary.height) / Double(secondary.height) : 1
        func scaled(_ box: BoundingBox) -> BoundingBox {
            BoundingBox(
                left: Int(Double(box.left) * scaleX), top: Int(Double(box.top) * scaleY),
                width: Int(Double(box.width) * scaleX), height: Int(Double(box.height) * scaleY))
        }
        let added = secondary.lines.filter { line in
            line.words.contains { word in
                let token = normalized(word.text)
                let telling = token.count >= 3 || token.contains(where: \.isNumber)
                return telling && !known.contains(token)
            }
        }.map { line in
            OCRLine(
                words: line.words.map { OCRWord(text: $0.text, confidence: $0.confidence, box: scaled($0.box)) },
                box: scaled(line.box))
        }
        var page = primary
        page.lines += added
        let confidences = page.lines.flatMap(\.words).map(\.confidence)
        page.meanConfidence = confidences.isEmpty ? 0 : confidences.reduce(0, +) / Double(confidences.count)
        return page
    }

    /// Letters and digits only, lowercased: `$8.20` and `8.20` are one token.
    private static func normalized(_ text: String) -> String {
        String(text.lowercased().filter { $0.isLetter || $0.isNumber })
    }
}
