import Foundation
import PipelineCore
import Testing

/// `OCRPage` as stored (OCR cache, fixtures, the `ocr` stage's output): pages from before the header pass still read.
@Suite struct OCRPageTests {
    @Test func pageStoredWithoutHeaderLinesDecodesWithNone() throws {
        let json = """
            {"lines":[{"words":[{"text":"CAFE","confidence":91.5,"box":{"left":10,"top":20,"width":80,"height":30}}],
            "box":{"left":10,"top":20,"width":80,"height":30}}],"width":400,"height":600,"meanConfidence":91.5}
            """

        let page = try JSONDecoder().decode(OCRPage.self, from: Data(json.utf8))

        #expect(page.headerLines.isEmpty)
        #expect(page.quarterTurns == 0)
        #expect(page.text == "CAFE")
        #expect(page.width == 400 && page.height == 600 && page.meanConfidence == 91.5)
        // The fixtures shipped before the header pass are stored so too.
        #expect(try ReceiptFixture.named("sroie_006").page.headerLines.isEmpty)
    }

    @Test func pageWithHeaderLinesRoundTrips() throws {
        let page = try ReceiptFixture.named("wr_7_1_3b5ee37e").page
        try #require(!page.headerLines.isEmpty)

        let encoded = try JSONEncoder().encode(page)
        let decoded = try JSONDecoder().decode(OCRPage.self, from: encoded)

        #expect(decoded == page)
        #expect(decoded.headerLines == page.headerLines)
        // The header reading is kept beside the page's text, not in it.
        #expect(decoded.text == page.lines.map(\.text).joined(separator: "\n"))
    }

    @Test func lineBoxEnclosesItsWordsBoxes() {
        let words = [
            BoundingBox(left: 40, top: 12, width: 30, height: 20),
            BoundingBox(left: 10, top: 15, width: 25, height: 22),
        ]

        #expect(BoundingBox(enclosing: words) == BoundingBox(left: 10, top: 12, width: 60, height: 25))
        #expect(BoundingBox(enclosing: []) == BoundingBox(left: 0, top: 0, width: 0, height: 0))
    }

    /// A page of one word, `text`, at `box`, in a page of `width` × `height`.
    private static func page(_ text: String, _ box: BoundingBox, width: Int, height: Int, confidence: Double)
        -> OCRPage
    {
        let word = OCRWord(text: text, confidence: confidence, box: box)
        return OCRPage(
            lines: [OCRLine(words: [word], box: box)], headerLines: [OCRLine(words: [word], box: box)], width: width,
            height: height, meanConfidence: confidence)
    }

    @Test func pagesReadOneByOneAreStackedWhereTheirPagesStart() throws {
        // The second page was read at twice the first's scale: 800 × 1000 for a page of 400 × 500 beside it.
        let first = Self.page(
            "CAFE", BoundingBox(left: 40, top: 100, width: 80, height: 30), width: 400, height: 600, confidence: 90)
        let second = Self.page(
            "TOTAL", BoundingBox(left: 40, top: 200, width: 120, height: 40), width: 800, height: 1000, confidence: 60)

        let stacked = try #require(OCRPage.stacking([first, second], starts: [0, 600.0 / 1100]))

        #expect(stacked.width == 400 && stacked.height == 1100)
        #expect(stacked.text == "CAFE\nTOTAL")
        #expect(stacked.lines[0].box == first.lines[0].box, "the first page keeps its scale")
        #expect(stacked.lines[1].box == BoundingBox(left: 20, top: 700, width: 60, height: 20))
        #expect(stacked.lines[1].words[0].box == stacked.lines[1].box)
        #expect(stacked.headerLines == first.headerLines, "the header reading is the top page's")
        #expect(stacked.meanConfidence == 75)
    }

    @Test func oneReadPageIsItsOwnStackAndStartsThatDoNotFitGiveNone() {
        let page = Self.page(
            "CAFE", BoundingBox(left: 1, top: 2, width: 3, height: 4), width: 10, height: 20, confidence: 80)

        #expect(OCRPage.stacking([page], starts: [0]) == page)
        #expect(OCRPage.stacking([page, page], starts: [0]) == nil)
        #expect(OCRPage.stacking([page, page], starts: [0.5, 0.7]) == nil)
        #expect(OCRPage.stacking([page, page], starts: [0, 1]) == nil)
        #expect(OCRPage.stacking([], starts: []) == nil)
    }

    /// A 7 × 5 image, a dark 3 × 2 block at (1, 0) on white: the block's box in each turned image, turned back, is
    /// where the block is on the image as it came; and four quarter turns give the image back.
    @Test(arguments: [1, 2, 3, -1])
    func boxesOfATurnedImageTurnBackToWhereTheyAre(quarterTurns: Int) throws {
        let (width, height) = (7, 5)
        let block = BoundingBox(left: 1, top: 0, width: 3, height: 2)
        var bytes = [UInt8](repeating: 255, count: width * height)
        for y in block.top..<block.bottom {
            for x in block.left..<block.right { bytes[y * width + x] = 0 }
        }
        let image = try #require(PixelImage(width: width, height: height, channels: 1, bytes: bytes))

        let turned = image.turnedClockwise(quarterTurns: quarterTurns)

        let dark = turned.bytes.indices.filter { turned.bytes[$0] == 0 }
        let xs = dark.map { $0 % turned.width }
        let ys = dark.map { $0 / turned.width }
        let seen = BoundingBox(
            left: xs.min() ?? -1, top: ys.min() ?? -1, width: (xs.max() ?? -1) - (xs.min() ?? 0) + 1,
            height: (ys.max() ?? -1) - (ys.min() ?? 0) + 1)
        #expect(dark.count == 6)
        #expect((turned.width, turned.height) == (quarterTurns % 2 == 0 ? (7, 5) : (5, 7)))
        #expect(
            seen.turnedBack(quarterTurns: quarterTurns, turnedWidth: turned.width, turnedHeight: turned.height)
                == block)
        #expect((1...4).reduce(image) { turned, _ in turned.turnedClockwise(quarterTurns: quarterTurns) } == image)
        // The layout the review page outlines evidence with is on the image as it came.
        let line = OCRLine(words: [OCRWord(text: "CAFE", confidence: 99, box: seen)], box: seen)
        let page = OCRPage(
            lines: [line], width: turned.width, height: turned.height, meanConfidence: 99,
            quarterTurns: (quarterTurns + 4) % 4)
        #expect(OCRLayout(page: page) == OCRLayout(width: width, height: height, lineBoxes: [block]))
        // The person is told, and the turn alone holds nothing.
        let note = try #require(page.turnedNote)
        #expect(note.code == .pageTurned && ReviewPolicy.reason(for: note) == nil)
        #expect(OCRPage(text: "CAFE").turnedNote == nil)
    }
}
