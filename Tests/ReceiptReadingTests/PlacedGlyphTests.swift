import PipelineCore
import ReceiptImage
import Testing

/// A text layer's characters, in any order, become lines top to bottom and words left to right.
@Suite("Text layer lines")
struct PlacedGlyphTests {
    /// Characters of `text` set at `x`, 10 px wide with 2 px between them (a space leaves a 12 px hole), 30 px tall.
    private func glyphs(_ text: String, x: Int, top: Int) -> [PlacedGlyph] {
        text.enumerated().compactMap { index, character in
            character == " "
                ? nil
                : PlacedGlyph(
                    text: String(character), box: BoundingBox(left: x + index * 12, top: top, width: 10, height: 30))
        }
    }

    @Test func charactersInAnyOrderMakeLinesAndWords() {
        let layer =
            glyphs("TOTAL", x: 10, top: 100) + glyphs("12.50", x: 400, top: 101) + glyphs("CAFE ROMA", x: 60, top: 20)
            + glyphs("Latte", x: 10, top: 60)

        let lines = PlacedGlyph.lines(layer.reversed())

        #expect(lines.map(\.text) == ["CAFE ROMA", "Latte", "TOTAL 12.50"])
        #expect(lines[2].words.map(\.box.left) == [10, 400])
        #expect(lines[2].box == BoundingBox(left: 10, top: 100, width: 448, height: 31))
        #expect(lines.allSatisfy { $0.words.allSatisfy { $0.confidence == 100 } })
    }

    @Test func aSmallerCharacterOnTheBaselineStaysOnItsLine() {
        var layer = glyphs("12", x: 10, top: 100)
        layer.append(PlacedGlyph(text: ".", box: BoundingBox(left: 34, top: 118, width: 6, height: 12)))
        layer += glyphs("50", x: 42, top: 100)

        #expect(PlacedGlyph.lines(layer).map(\.text) == ["12.50"])
    }

    @Test func emptyBoxesAreDropped() {
        let layer =
            glyphs("AB", x: 0, top: 0) + [
                PlacedGlyph(text: "X", box: BoundingBox(left: 5, top: 50, width: 0, height: 0))
            ]
        #expect(PlacedGlyph.lines(layer).map(\.text) == ["AB"])
    }
}
