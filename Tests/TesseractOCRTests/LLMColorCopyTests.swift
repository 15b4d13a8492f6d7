import Foundation
import PipelineCore
import ReceiptImage
import TestSupport
import Testing

@testable import TesseractOCR

/// The copy the vision model gets: in color when the source has color and `image.llmColor` is on, gray otherwise.
@Suite struct LLMColorCopyTests {
    /// Components of a baseline or progressive JPEG (1 gray, 3 color), from its frame header.
    static func components(ofJPEG data: Data) -> Int? {
        let bytes = [UInt8](data)
        var index = 2
        while index + 9 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xC0 || marker == 0xC1 || marker == 0xC2 { return Int(bytes[index + 9]) }
            index += 2 + Int(bytes[index + 2]) << 8 + Int(bytes[index + 3])
        }
        return nil
    }

    /// SROIE receipts are gray scans stored as RGB JPEGs; WildReceipt receipts are color phone photos.
    static let grayScans = ["sroie_006.jpg", "sroie_030.jpg"]
    static let colorPhotos = ["wr_13_10.jpeg", "wr_28_14.jpeg", "wr_33_15.jpeg", "wr_58_20.jpeg", "wr_89_9.jpeg"]

    private func components(_ names: [String], llmColor: Bool) async throws -> [String: Int] {
        var options = TestEngines.defaultOptions
        options.llmColor = llmColor
        return try await TestEngines.withEngine(options) { engine in
            var found: [String: Int] = [:]
            for name in names {
                let bytes = try Data(contentsOf: TestEnvironment.receipt(name))
                found[name] = Self.components(ofJPEG: try await engine.process(bytes, file: name).compressedJPEG)
            }
            return found
        }
    }

    @Test func colorPhotosStayInColorAndGrayScansStayGray() async throws {
        let found = try await components(Self.grayScans + Self.colorPhotos, llmColor: true)
        for name in Self.colorPhotos { #expect(found[name] == 3, "\(name)") }
        for name in Self.grayScans { #expect(found[name] == 1, "\(name)") }
    }

    @Test func withLLMColorOffEveryCopyIsGray() async throws {
        let found = try await components(Self.colorPhotos, llmColor: false)
        for name in Self.colorPhotos { #expect(found[name] == 1, "\(name)") }
    }
}
