import Foundation
import PipelineCore
import Testing

@Suite struct LLMImageTests {
    private let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 96))
    private let tiff = Data([0x49, 0x49, 0x2A, 0x00] + [UInt8](repeating: 7, count: 96))

    @Test func aSmallerCopyIsSent() {
        let copy = Data([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 1, count: 40))
        #expect(LLMImage.choose(original: jpeg, compressed: copy) == copy)
    }

    @Test func theOriginalIsSentWhenTheCopyIsNotSmaller() {
        let copy = Data([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 1, count: 200))
        #expect(LLMImage.choose(original: jpeg, compressed: copy) == jpeg)
    }

    @Test func anOriginalProvidersRefuseIsNeverSent() {
        let copy = Data([0xFF, 0xD8, 0xFF] + [UInt8](repeating: 1, count: 200))
        #expect(LLMImage.choose(original: tiff, compressed: copy) == copy)
    }
}
