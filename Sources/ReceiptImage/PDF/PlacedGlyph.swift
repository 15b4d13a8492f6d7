import PipelineCore

/// One character of a text layer (a born-digital PDF) with its box in page pixels.
public struct PlacedGlyph: Sendable, Equatable {
    public var text: String
    public var box: BoundingBox

    public init(text: String, box: BoundingBox) {
        self.text = text
        self.box = box
    }

    /// A word ends where the gap to the next character is wider than this share of the line's character height
    /// (a space in a proportional font is ~0.28 em, letters sit ~0.05 em apart; boxes span ascent to descent, ~1 em).
    static let wordGapShare = 0.18

    /// Groups characters into lines of words, in reading order: lines top to bottom (a character joins the line
    /// whose vertical span holds its center), words left to right, split at gaps wider than `wordGapShare` of the
    /// line's median character height. Order in the file does not matter; empty boxes are dropped.
    public static func lines(_ glyphs: [PlacedGlyph]) -> [OCRLine] {
        let visible = glyphs.filter { $0.box.height > 0 && !$0.text.isEmpty }
        func center(_ glyph: PlacedGlyph) -> Double { Double(glyph.box.top) + Double(glyph.box.height) / 2 }
        var rows: [[PlacedGlyph]] = []
        var span = (top: 0, bottom: 0)
        for glyph in visible.sorted(by: { (center($0), $0.box.left) < (center($1), $1.box.left) }) {
            let middle = center(glyph)
            if !rows.isEmpty, Double(span.top) <= middle, middle <= Double(span.bottom) {
                rows[rows.count - 1].append(glyph)
                span = (min(span.top, glyph.box.top), max(span.bottom, glyph.box.bottom))
            } else {
                rows.append([glyph])
                span = (glyph.box.top, glyph.box.bottom)
            }
        }
        return rows.map(line)
    }

    private static func line(_ row: [PlacedGlyph]) -> OCRLine {
        let ordered = row.sorted { $0.box.left < $1.box.left }
        let heights = ordered.map(\.box.height).sorted()
        let gap = Double(heights[heights.count / 2]) * wordGapShare
        var words: [[PlacedGlyph]] = []
        for glyph in ordered {
            if let previous = words.last?.last, Double(glyph.box.left - previous.box.right) <= gap {
                words[words.count - 1].append(glyph)
            } else {
                words.append([glyph])
            }
        }
        let ocrWords = words.map { word in
            OCRWord(text: word.map(\.text).joined(), confidence: 100, box: BoundingBox(enclosing: word.map(\.box)))
        }
        return OCRLine(words: ocrWords, box: BoundingBox(enclosing: ocrWords.map(\.box)))
    }
}
