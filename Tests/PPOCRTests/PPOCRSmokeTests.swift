import Foundation
import PPOCR
import PipelineCore
import TestSupport
import Testing

@Suite("PP-OCR smoke")
struct PPOCRSmokeTests {
    @Test func readsScan() async throws {
        for name in ["sroie_030.jpg", "wr_28_14.jpeg"] {
            let image = try PPOCRTestSupport.pixels(name)
            let clock = ContinuousClock()
            let start = clock.now
            let page = try await PPOCRTestSupport.withEngine { try await $0.read(image, file: name) }
            print(name, image.width, image.height, image.channels, clock.now - start)
            print(page.text)
            #expect(!page.lines.isEmpty)
        }
    }
}
