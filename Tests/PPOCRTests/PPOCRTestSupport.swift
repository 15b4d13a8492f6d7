import Foundation
import PPOCR
import PipelineCore
import ReceiptImage
import TestSupport

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
}
