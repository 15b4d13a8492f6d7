import PipelineCore
import TesseractOCR
import Testing

@Suite("Second OCR pass policy")
struct SecondPassPolicyTests {
    @Test(
        "A second pass runs when the first text shows no date",
        arguments: [
            ("SHOP\nDate: 11/01/2019\nTOTAL RM 327.00", false),
            ("SHOP\n05 MAR 2018 10:12\nAmount due 12,50", false),
            ("SHOP\nJan 5, 2019\nBalance 3.05", false),
            ("SHOP\nDate: 11/01/2019\nCash 327.00", false),
            ("SHOP\n2019-01-11\nTOTAL", false),
            ("SHOP\nTOTAL RM 327.00", true),
            ("SHOP\nbate: o7/osr2018 5:42 PM\nTOTAL 24.40", true),
            ("", true),
        ])
    func decides(_ text: String, _ expected: Bool) {
        #expect(SecondPassPolicy.needsSecondPass(text) == expected)
    }
}

@Suite("Strips the second OCR pass re-reads")
struct SecondPassStripTests {
    /// A line of one word at `top`, 20 px high, read with `confidence`.
    static func line(_ text: String, top: Int, confidence: Double) -> OCRLine {
        let box = BoundingBox(left: 40, top: top, width: 300, height: 20)
        return OCRLine(words: [OCRWord(text: text, confidence: confidence, box: box)], box: box)
    }

    static func page(_ lines: [OCRLine]) -> OCRPage {
        OCRPage(lines: lines, width: 800, height: 1000, meanConfidence: 0)
    }

    @Test("Only uncertain lines with a digit are re-read, in full-width strips padded by half a line")
    func picksUncertainLinesWithDigits() {
        let page = Self.page([
            Self.line("bate:o7/osr2018", top: 100, confidence: 55),
            Self.line("TOTAL 12.50", top: 300, confidence: 95),
            Self.line("Thank-yoo", top: 500, confidence: 30),
            Self.line("Rm1O.5O", top: 700, confidence: 69.9),
        ])
        let strips = SecondPassPolicy.stripsToReread(in: page, belowConfidence: 70)
        #expect(
            strips == [
                BoundingBox(left: 0, top: 90, width: 800, height: 40),
                BoundingBox(left: 0, top: 690, width: 800, height: 40),
            ])
    }

    @Test("Strips that overlap merge, and strips stay inside the page")
    func mergesAndClips() {
        let page = Self.page([
            Self.line("1", top: 5, confidence: 10),
            Self.line("2", top: 400, confidence: 10),
            Self.line("3", top: 425, confidence: 10),
            Self.line("4", top: 975, confidence: 10),
        ])
        let strips = SecondPassPolicy.stripsToReread(in: page, belowConfidence: 50)
        #expect(
            strips == [
                BoundingBox(left: 0, top: 0, width: 800, height: 35),
                BoundingBox(left: 0, top: 390, width: 800, height: 65),
                BoundingBox(left: 0, top: 965, width: 800, height: 35),
            ])
    }

    @Test("A confident page needs no strips")
    func confidentPage() {
        let page = Self.page([Self.line("12/01/2019", top: 100, confidence: 91)])
        #expect(SecondPassPolicy.stripsToReread(in: page, belowConfidence: 70).isEmpty)
    }
}
