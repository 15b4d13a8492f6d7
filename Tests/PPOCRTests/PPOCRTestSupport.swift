import Foundation
import PPOCR
import PipelineCore
import ReceiptImage
import TestSupport
import Testing

/// The engine and decoded shipped receipts the PP-OCR tests share.
enum PPOCRTestSupport {
    /// The shipped defaults of `pipeline.yaml` (the files where `scripts/install-ppocr` puts them), with a deadline
    /// loose enough for a loaded machine: the deadline is wall-clock time, and these tests check text, not speed.
    static var settings: PPOCRSettings {
        var settings = PPOCRSettings.defaults
        settings.timeout = .seconds(300)
        return settings
    }

    /// A shipped receipt decoded as the PP-OCR path decodes it.
    static func pixels(_ name: String) throws -> PixelImage {
        let bytes = try Data(contentsOf: TestEnvironment.receipt(name))
        return try ReceiptPixelDecoder.decode(
            bytes, file: name, options: .defaults
        ).pixels
    }

    /// Runs `body` with a fresh engine and shuts it down afterwards.
    static func withEngine<T>(_ body: (PPOCREngine) async throws -> T) async throws -> T {
        try await withShutdown(
            try await PPOCREngine.make(settings: settings, name: "test-ppocr"), shutdown: { await $0.shutdown() }, body)
    }

    /// `receipt` shrunk to half its size and laid on a dark, grained table `width` × `height` (a 12 MP phone photo as
    /// the decoder halves it is 1512 × 2016), its top-left corner at `origin`.
    static func onTable(_ receipt: PixelImage, width: Int, height: Int, origin: (x: Int, y: Int)) throws -> PixelImage {
        let channels = receipt.channels
        var bytes = [UInt8](repeating: 0, count: width * height * channels)
        for y in 0..<height {
            for x in 0..<width {
                // Wood-like grain: darker and lighter bands along the rows, a little noise across.
                let grain = 40 + (y / 7 % 5) * 4 + (x * 31 + y * 17) % 9
                for channel in 0..<channels { bytes[(y * width + x) * channels + channel] = UInt8(grain) }
            }
        }
        for y in 0..<receipt.height / 2 {
            for x in 0..<receipt.width / 2 {
                for channel in 0..<channels {
                    let corners = [(0, 0), (1, 0), (0, 1), (1, 1)].map { dx, dy in
                        Int(receipt.bytes[((2 * y + dy) * receipt.width + 2 * x + dx) * channels + channel])
                    }
                    bytes[((origin.y + y) * width + origin.x + x) * channels + channel] = UInt8(
                        corners.reduce(0, +) / 4)
                }
            }
        }
        return try #require(PixelImage(width: width, height: height, channels: channels, bytes: bytes))
    }
}
