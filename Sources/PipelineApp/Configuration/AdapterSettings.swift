import PPOCR
import PipelineCore
import PipelineRuntime
import PostgresStore
import ReceiptImage
import ReceiptReading

// The configuration mapped onto the settings each adapter defines for itself: no adapter reads the app's schema.

extension PPOCRSettings {
    /// `ocr.ppocr.*` and the OCR deadline.
    init(_ configuration: PipelineConfiguration) {
        self.init(
            directory: configuration.ocr.ppocr.directory, detectorLongSide: configuration.ocr.ppocr.detectorLongSide,
            threads: configuration.ocr.ppocr.threads, timeout: configuration.ocr.timeout)
    }
}

extension ImageProcessingOptions {
    /// `image.*`, `pdf.*` and Tesseract's `ocr.*`.
    package init(_ configuration: PipelineConfiguration) {
        self.init(
            maxPixels: configuration.image.maxPixels, pdfLibrary: configuration.pdf.library,
            pdfMaxPages: configuration.pdf.maxPages, pdfMaxPageSide: configuration.pdf.maxPageSide,
            pdfPageTimeout: configuration.pdf.pageTimeout, minSide: configuration.image.minSide,
            targetLongSide: configuration.ocr.targetLongSide, minLongSide: configuration.ocr.minLongSide,
            compressLongSide: configuration.image.compressLongSide, jpegQuality: configuration.image.jpegQuality,
            llmColor: configuration.image.llmColor, language: configuration.ocr.language,
            tessdata: configuration.ocr.tessdata, pageSegmentation: configuration.ocr.pageSegmentation,
            secondPassSegmentation: configuration.ocr.secondPassSegmentation,
            secondPassConfidence: Double(configuration.ocr.secondPassConfidence),
            headerSegmentation: configuration.ocr.headerSegmentation, headerShare: configuration.ocr.headerShare,
            timeout: configuration.ocr.timeout)
    }
}

extension ReceiptImageReader {
    /// Starts `count` engines (of each kind, for `both`) of the engine `configuration` names, with its settings.
    /// - Parameter options: the image settings; `ImageProcessingOptions(configuration)` unless a benchmark
    ///   overrides some.
    /// - Throws: `ImageError.engineUnavailable` when an engine cannot start.
    package static func make(
        configuration: PipelineConfiguration, options: ImageProcessingOptions? = nil, count: Int
    ) async throws(ImageError) -> ReceiptImageReader {
        try await make(
            engine: configuration.ocr.engine, ppocr: PPOCRSettings(configuration),
            options: options ?? ImageProcessingOptions(configuration), count: count)
    }
}

extension WorkerOptions {
    /// `workers.*` and `queue.*`.
    package init(configuration: PipelineConfiguration, drain: Bool = false, maxJobs: Int? = nil) {
        self.init(
            concurrency: configuration.workers.concurrency, lease: configuration.queue.lease,
            heartbeat: configuration.queue.heartbeat, pollInterval: configuration.queue.pollInterval,
            shutdownGrace: configuration.workers.shutdownGrace, retention: configuration.queue.retention,
            drain: drain, maxJobs: maxJobs)
    }
}

extension Reconciler {
    /// `validation.tolerance`.
    package init(configuration: PipelineConfiguration.Validation) {
        self.init(tolerance: configuration.tolerance)
    }
}

extension LLMPricing {
    /// `llm.inputPricePerMillion` and `llm.outputPricePerMillion`.
    init(_ configuration: PipelineConfiguration.LLM) {
        self.init(
            inputPerMillion: configuration.inputPricePerMillion, outputPerMillion: configuration.outputPricePerMillion)
    }
}
