import Foundation
import PipelineCore
import ReceiptImage
import TesseractOCR
import TestSupport
import Testing

/// Previews for the bench report: small, upright JPEGs, and the same refusals as the pipeline.
@Suite struct ThumbnailTests {
    @Test func previewIsASmallJPEGWithTheLongSideAsked() async throws {
        let receipt = try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))

        let preview = try Thumbnail.jpeg(
            receipt, file: "sroie_006.jpg", longSide: 300, options: TestEngines.defaultOptions)

        #expect(preview.prefix(3) == Data([0xFF, 0xD8, 0xFF]))
        #expect(preview.count * 10 < receipt.count)
        let processed = try await TestEngines.withEngine { try await $0.process(preview, file: "preview.jpg") }
        #expect(max(processed.originalWidth, processed.originalHeight) == 300)
    }

    @Test func textNamedLikeAnImageIsRefused() {
        #expect(throws: ImageError.self) {
            try Thumbnail.jpeg(
                Data("not an image".utf8), file: "notes.jpg", longSide: 300, options: TestEngines.defaultOptions)
        }
    }
}
