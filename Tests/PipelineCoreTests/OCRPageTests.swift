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
}
