import Foundation
import PipelineCore
import ReceiptImage
import Testing

@Suite("EXIF orientation")
struct ExifOrientationTests {
    private let baseJPEG = Data([0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x04, 0x00, 0x00, 0xFF, 0xDA, 0x00, 0x02, 0xFF, 0xD9])

    @Test("The orientation tag is read from the APP1 block", arguments: ExifOrientation.allCases)
    func readsTag(_ orientation: ExifOrientation) {
        let jpeg = GeneratedImages.withExifOrientation(baseJPEG, orientation: UInt16(orientation.rawValue))
        #expect(ExifOrientation.read(fromJPEG: jpeg) == orientation)
    }

    @Test("Missing, out-of-range or damaged EXIF data means upright")
    func defaultsToUp() {
        #expect(ExifOrientation.read(fromJPEG: baseJPEG) == .up)
        #expect(ExifOrientation.read(fromJPEG: GeneratedImages.withExifOrientation(baseJPEG, orientation: 9)) == .up)
        var damaged = GeneratedImages.withExifOrientation(baseJPEG, orientation: 6)
        damaged.removeSubrange(20..<28)
        #expect(ExifOrientation.read(fromJPEG: damaged) == .up)
        #expect(ExifOrientation.read(fromJPEG: Data()) == .up)
    }

    @Test("Turns and mirroring follow the EXIF definition")
    func geometry() {
        #expect(ExifOrientation.right.clockwiseQuarterTurns == 1 && ExifOrientation.right.swapsSides)
        #expect(ExifOrientation.left.clockwiseQuarterTurns == 3 && !ExifOrientation.left.isMirrored)
        #expect(ExifOrientation.downMirrored.isMirrored && !ExifOrientation.downMirrored.swapsSides)
        #expect(ExifOrientation.leftMirrored.isMirrored && ExifOrientation.leftMirrored.swapsSides)
    }
}
