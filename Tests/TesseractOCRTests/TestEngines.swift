import Foundation
import PipelineCore
import TesseractOCR
import TestSupport

/// Engines and settings the OCR tests share.
///
/// Tesseract is slow without `OMP_THREAD_LIMIT=1` in the environment before the process starts; `scripts/test`
/// exports it. The tests are correct either way, only slower.
enum TestEngines {
    /// The shipped defaults of `pipeline.yaml`.
    static var defaultOptions: ImageProcessingOptions { ImageProcessingOptions(PipelineConfiguration()) }

    /// Runs `body` with a fresh engine and shuts it down afterwards.
    static func withEngine<T>(
        _ options: ImageProcessingOptions = defaultOptions, _ body: (TesseractEngine) async throws -> T
    ) async throws -> T {
        let engine = try await TesseractEngine.make(options: options, name: "test-ocr")
        do {
            let value = try await body(engine)
            await engine.shutdown()
            return value
        } catch {
            await engine.shutdown()
            throw error
        }
    }
}

/// The key fields of a shipped receipt's label.
struct ReceiptLabel: Decodable {
    let merchant: String?
    let date: String?
    let total: String?

    static func of(_ image: String) throws -> ReceiptLabel {
        let name = (image as NSString).deletingPathExtension + ".json"
        return try JSONDecoder().decode(ReceiptLabel.self, from: Data(contentsOf: TestEnvironment.receipt(name)))
    }
}
