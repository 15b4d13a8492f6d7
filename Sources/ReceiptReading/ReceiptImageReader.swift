import BlockingExecution
import Foundation
import PPOCR
import PipelineCore
import ReceiptImage
import TesseractOCR

/// The image stages with the PP-OCR engine: decode in color behind Leptonica's guards, read with PP-OCR, and
/// the gray JPEG copy for the LLM — the same `ProcessedImage` the Tesseract pool returns.
package struct PPOCRImageReader: Sendable {
    let engines: SlotPool<PPOCREngine>
    let options: ImageProcessingOptions

    /// Starts one engine per slot.
    /// - Throws: `ImageError.engineUnavailable` naming the missing file and the install command.
    static func make(settings: PPOCRSettings, options: ImageProcessingOptions, count: Int)
        async throws(ImageError) -> PPOCRImageReader
    {
        PPOCRImageReader(engines: try await PPOCREngine.pool(count: count, settings: settings), options: options)
    }

    /// Decode, OCR and compress one image on the next free engine; with a page read before (`page`), no OCR.
    /// - Throws: `ImageError` as `TesseractEnginePool.process` does, or `CancellationError`.
    func process(_ bytes: Data, file: String, page readBefore: OCRPage? = nil) async throws -> ProcessedImage {
        try await engines.withResource { [options] engine in
            let decoded = try await engine.perform {
                try ReceiptPixelDecoder.decode(bytes, file: file, options: options)
            }
            var timings = decoded.timings
            let page: OCRPage
            if let readBefore {
                page = readBefore
            } else {
                let startedAt = Date()
                let start = ContinuousClock.now
                page = try await engine.read(decoded.pixels, file: file)
                timings.record(.ocr, startedAt: startedAt, duration: ContinuousClock.now - start)
            }
            return ProcessedImage(
                format: decoded.format, originalWidth: decoded.originalWidth, originalHeight: decoded.originalHeight,
                page: page, compressedJPEG: decoded.compressedJPEG, originalBytes: bytes.count, timings: timings,
                readBy: .ppocr, fingerprint: decoded.fingerprint)
        }
    }

    func shutdown() async {
        for engine in engines.resources { await engine.shutdown() }
    }
}

/// The image stages with the engine `ocr.engine` names: one place that decides, for `work` and `bench`. A
/// born-digital PDF skips the engine: its text layer is the page (`PDFTextReceipt`).
package struct ReceiptImageReader: OCREngine {
    private let engines: OCREngines
    private let options: ImageProcessingOptions
    /// Reads PDF text layers (blocking PDFium calls) off the cooperative pool.
    private let documents: ThreadExecutor

    package var readsWith: OCREngineChoice { engines.choice }

    /// Starts `count` engines (of each kind, for `both`) of `engine`.
    /// - Parameters:
    ///   - ppocr: PP-OCR's settings, when it is one of them.
    ///   - options: the image settings.
    /// - Throws: `ImageError.engineUnavailable` when an engine cannot start (for PP-OCR: the missing file and the
    ///   install command, in one line).
    package static func make(
        engine: OCREngineChoice, ppocr: PPOCRSettings, options: ImageProcessingOptions, count: Int
    ) async throws(ImageError) -> ReceiptImageReader {
        ReceiptImageReader(
            engines: try await OCREngines.make(engine: engine, ppocr: ppocr, options: options, count: count),
            options: options, documents: ThreadExecutor(name: "pdf-text"))
    }

    /// Decode, OCR and compress one image (see `TesseractEnginePool.process`); a PDF whose every page has a text
    /// layer is read from it instead.
    package func process(_ bytes: Data, file: String) async throws -> ProcessedImage {
        try await process(bytes, file: file, page: nil)
    }

    /// The image stages around a page read before (a scanned PDF's pages ingest read, an earlier attempt's page):
    /// decode, normalize and compress on the engine, no OCR. A PDF's text layer is still read first: the page read
    /// before stands in for OCR only.
    package func decode(_ bytes: Data, file: String, page: OCRPage) async throws -> ProcessedImage {
        try await process(bytes, file: file, page: page)
    }

    /// The image stages, reading with the engine unless a page read before (`page`) stands in.
    private func process(_ bytes: Data, file: String, page: OCRPage?) async throws -> ProcessedImage {
        guard detectImageFormat(leadingBytes: bytes.prefix(imageSignatureLength)) == .supported(.pdf) else {
            return try await engines.process(bytes, file: file, page: page)
        }
        let (read, pageStarts) = try await withTaskExecutorPreference(documents) {
            [options, readsWith] () throws(ImageError) -> (ProcessedImage?, [Double]) in
            (
                try PDFTextReceipt.read(bytes, file: file, options: options, readBy: readsWith),
                try PDFPages.pageStarts(bytes, file: file, options: options)
            )
        }
        var processed: ProcessedImage
        if let read {
            processed = read
        } else {
            processed = try await engines.process(bytes, file: file, page: page)
        }
        processed.pageStarts = pageStarts
        return processed
    }

    package func shutdown() async {
        await engines.shutdown()
        documents.shutdown()
    }
}

/// The OCR engine(s) `ocr.engine` names.
private enum OCREngines {
    case tesseract(TesseractEnginePool)
    case ppocr(PPOCRImageReader)
    /// PP-OCR's page supplemented with the lines of Tesseract's that add something (`OCRPageMerge`).
    case both(PPOCRImageReader, TesseractEnginePool)

    static func make(engine: OCREngineChoice, ppocr: PPOCRSettings, options: ImageProcessingOptions, count: Int)
        async throws(ImageError) -> OCREngines
    {
        switch engine {
        case .tesseract:
            return .tesseract(try await TesseractEnginePool.make(count: count, options: options))
        case .ppocr:
            return .ppocr(try await PPOCRImageReader.make(settings: ppocr, options: options, count: count))
        case .both:
            let reader = try await PPOCRImageReader.make(settings: ppocr, options: options, count: count)
            do {
                return .both(reader, try await TesseractEnginePool.make(count: count, options: options))
            } catch {
                await reader.shutdown()
                throw error
            }
        }
    }

    /// The engine these are.
    var choice: OCREngineChoice {
        switch self {
        case .tesseract: .tesseract
        case .ppocr: .ppocr
        case .both: .both
        }
    }

    /// The image stages on the engine(s); with a page read before (`page`), no OCR.
    func process(_ bytes: Data, file: String, page: OCRPage? = nil) async throws -> ProcessedImage {
        switch self {
        case .tesseract(let pool):
            if let page { return try await pool.decode(bytes, file: file, page: page) }
            return try await pool.process(bytes, file: file)
        case .ppocr(let reader): return try await reader.process(bytes, file: file, page: page)
        case .both(let reader, _) where page != nil:
            var processed = try await reader.process(bytes, file: file, page: page)
            processed.readBy = .both
            return processed
        case .both(let reader, let pool):
            var processed = try await reader.process(bytes, file: file)
            let tesseract = try await pool.process(bytes, file: file)
            processed.page = OCRPageMerge.supplement(processed.page, with: tesseract.page)
            processed.readBy = .both
            // Tesseract's own decode and read of the same image count as OCR time of this receipt.
            processed.timings.record(.ocr, startedAt: Date(), duration: tesseract.timings.total)
            return processed
        }
    }

    func shutdown() async {
        switch self {
        case .tesseract(let pool): await pool.shutdown()
        case .ppocr(let reader): await reader.shutdown()
        case .both(let reader, let pool):
            await reader.shutdown()
            await pool.shutdown()
        }
    }
}
