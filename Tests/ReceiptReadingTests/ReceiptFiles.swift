import Foundation
import PPOCR
import PipelineCore
import ReceiptImage
import ReceiptReading
import TestSupport

/// The reader and receipt files the PDF and HEIC tests share (other files: `TestFiles`).
enum ReceiptFiles {
    /// The shipped defaults.
    static var options: ImageProcessingOptions { .defaults }

    /// The born-digital PDF of shipped receipt `name`, its text laid out from the label.
    static func bornDigitalPDF(_ name: String, rawDate: String) throws -> Data {
        TestPDF.document([TestPDF.receiptPage(for: try ReceiptLabel.of(name), rawDate: rawDate)])
    }

    /// Runs `body` with a reader of `engine` (one slot; Tesseract unless said: cheaper than PP-OCR, and the PDF and
    /// HEIC paths are the same for both), shutting it down afterwards.
    static func withReader<T>(engine: OCREngineChoice = .tesseract, _ body: (ReceiptImageReader) async throws -> T)
        async throws -> T
    {
        try await withShutdown(
            try await ReceiptImageReader.make(engine: engine, ppocr: .defaults, options: options, count: 1),
            shutdown: { await $0.shutdown() },
            body)
    }
}
