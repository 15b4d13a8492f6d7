import Foundation
import PipelineCore
import ReceiptImage
import ReceiptReading
import TestSupport
import Testing

/// HEIC photos (an iPhone's default) read like the JPEG they were made from, behind the same pixel guard.
@Suite("HEIC receipts")
struct HEICReceiptTests {
    @Test func aHEICReadsLikeTheJPEGItWasMadeFrom() async throws {
        let jpeg = try Data(contentsOf: TestEnvironment.receipt("sroie_030.jpg"))
        let heic = try TestFiles.heic("sroie_030.jpg")

        let (fromJPEG, fromHEIC) = try await ReceiptFiles.withReader { reader in
            (
                try await reader.process(jpeg, file: "sroie_030.jpg"),
                try await reader.process(heic, file: "IMG_0001.HEIC")
            )
        }

        #expect(fromHEIC.format == .heic)
        #expect(fromHEIC.originalWidth == fromJPEG.originalWidth)
        #expect(fromHEIC.originalHeight == fromJPEG.originalHeight)
        #expect(
            ReceiptExtractor.extract(fromHEIC.page).total?.value == ReceiptExtractor.extract(fromJPEG.page).total?.value
        )
        #expect(TextSimilarity.similarity(fromHEIC.page.text, fromJPEG.page.text) > 0.9)
    }

    @Test func aHEICOverThePixelBudgetIsRefusedFromItsHeader() async throws {
        var options = ReceiptFiles.options
        options.maxPixels = 100_000
        let heic = try TestFiles.heic("sroie_030.jpg")
        let error = try #require(throws: ImageError.self) {
            try ReceiptPixelDecoder.decode(heic, file: "IMG_0002.HEIC", options: options)
        }
        #expect(error.code == .tooManyPixels)
        #expect(error.description.contains("IMG_0002.HEIC"))
    }
}
