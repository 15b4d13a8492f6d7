import Foundation
import PipelineCore
import ReceiptImage
import ReceiptReading
import TestSupport

/// The reader and receipt files the PDF and HEIC tests share (other files: `TestFiles`).
enum ReceiptFiles {
    /// The shipped defaults with Tesseract as the engine (cheaper than PP-OCR; the PDF and HEIC paths are the same
    /// for both).
    static var configuration: PipelineConfiguration {
        var configuration = PipelineConfiguration()
        configuration.ocr.engine = .tesseract
        return configuration
    }

    static var options: ImageProcessingOptions { ImageProcessingOptions(configuration) }

    /// The born-digital PDF of shipped receipt `name`, its text laid out from the label.
    static func bornDigitalPDF(_ name: String, rawDate: String) throws -> Data {
        TestPDF.document([TestPDF.receiptPage(for: try ReceiptLabel.of(name), rawDate: rawDate)])
    }

    /// Runs `body` with a reader of `configuration`'s engine (one slot), shutting it down afterwards.
    static func withReader<T>(_ body: (ReceiptImageReader) async throws -> T) async throws -> T {
        try await withShutdown(
            try await ReceiptImageReader.make(configuration: configuration, count: 1),
            shutdown: { await $0.shutdown() },
            body)
    }
}
