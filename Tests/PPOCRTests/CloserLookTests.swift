import PipelineCore
import Testing

@testable import PPOCR

/// When the detector looks at a page again, closer, and where: the rule alone, on boxes made up for it.
@Suite("PP-OCR detector's closer look")
struct CloserLookTests {
    /// A 12 MP phone photo as the decoder halves it: its map is shrunk to 0.476.
    static let photo = BoundingBox(left: 0, top: 0, width: 1512, height: 2016)
    static let firstRatio = TextDetector.mapRatio(photo, longSide: 960)

    /// `count` line boxes, one under the other, spanning `left...right` across and starting at `top`.
    static func lines(_ count: Int, left: Double, right: Double, top: Double) -> [Quad] {
        (0..<count).map { index in
            let y = top + Double(index) * 20
            return Quad(
                topLeft: Point(x: left, y: y), topRight: Point(x: right, y: y),
                bottomRight: Point(x: right, y: y + 12), bottomLeft: Point(x: left, y: y + 12))
        }
    }

    @Test("Text in a third of the photo is looked at again in its window grown by a quarter, at full size")
    func textInAThirdOfThePhoto() throws {
        let boxes = Self.lines(21, left: 500, right: 1000, top: 600)  // 500 × 412 px of text

        let look = try #require(
            TextDetector.closerLook(
                at: boxes, on: Self.photo, firstRatio: Self.firstRatio, isFirst: true, longSide: 960))

        #expect(look.window == BoundingBox(left: 375, top: 497, width: 750, height: 618))
        #expect(look.ratio == 1)
    }

    @Test(
        "A page with almost nothing found is looked at again whole; what that finds, however little, is looked at next")
    func almostNothingFound() throws {
        let boxes = Self.lines(TextDetector.fewBoxes - 1, left: 500, right: 1000, top: 600)

        let look = try #require(
            TextDetector.closerLook(
                at: boxes, on: Self.photo, firstRatio: Self.firstRatio, isFirst: true, longSide: 960))

        #expect(look.window == Self.photo)
        #expect(look.ratio > TextDetector.closerZoom * Self.firstRatio && look.ratio < 1)

        let next = try #require(
            TextDetector.closerLook(
                at: boxes, on: Self.photo, firstRatio: Self.firstRatio, isFirst: false, longSide: 960))
        #expect(next.window == BoundingBox(left: 375, top: 582, width: 750, height: 108))
        #expect(next.ratio == 1)
        #expect(
            TextDetector.closerLook(at: [], on: Self.photo, firstRatio: Self.firstRatio, isFirst: false, longSide: 960)
                == nil)
    }

    @Test("Text across the whole page, or a page not shrunk for the map, is not looked at again")
    func closeEnoughAlready() {
        let filling = Self.lines(90, left: 40, right: 1470, top: 40)
        #expect(
            TextDetector.closerLook(
                at: filling, on: Self.photo, firstRatio: Self.firstRatio, isFirst: true, longSide: 960) == nil)

        let small = BoundingBox(left: 0, top: 0, width: 465, height: 657)
        let ratio = TextDetector.mapRatio(small, longSide: 960)
        #expect(ratio == 1)
        #expect(TextDetector.closerLook(at: [], on: small, firstRatio: ratio, isFirst: true, longSide: 960) == nil)
    }
}
