import Foundation
import PipelineCore
import ReceiptImage
import TesseractOCR
import TestSupport

/// Engines and settings the OCR tests share.
///
/// Tesseract is slow without `OMP_THREAD_LIMIT=1` in the environment before the process starts; `scripts/test`
/// exports it. The tests are correct either way, only slower.
enum TestEngines {
    /// The shipped defaults of `pipeline.yaml`.
    static var defaultOptions: ImageProcessingOptions { ImageProcessingOptions.defaults }

    /// Runs `body` with a fresh engine and shuts it down afterwards.
    static func withEngine<T>(
        _ options: ImageProcessingOptions = defaultOptions, _ body: (TesseractEngine) async throws -> T
    ) async throws -> T {
        try await withShutdown(
            try await TesseractEngine.make(options: options, name: "test-ocr"), shutdown: { await $0.shutdown() }, body)
    }
}
