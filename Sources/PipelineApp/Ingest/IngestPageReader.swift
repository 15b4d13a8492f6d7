import Foundation
import PipelineCore
import ReceiptImage
import ReceiptReading

/// Reads the pages of a PDF one by one, for splitting it into receipts at ingest (`ingest.pdfPages: content`): a
/// page's text layer when it has one, else the configured OCR engine, which starts on the first scanned page and
/// once only. What the engine read is kept with the receipts (`keptPage`), so the worker does not read it again.
/// Whoever makes one calls `shutdown` when done.
actor IngestPageReader {
    /// One page as ingest read it.
    struct ReadPage: Sendable {
        /// What it holds of a receipt, for the split.
        let content: ReceiptPageGrouping.PageContent
        /// The engine's reading of a scanned page; nil for a page read from its text layer.
        let scan: OCRPage?
    }

    private let configuration: PipelineConfiguration
    /// The engine for scanned pages, once the first one asked for it.
    private var engine: Task<ReceiptImageReader, any Error>?

    init(configuration: PipelineConfiguration) {
        self.configuration = configuration
    }

    /// Each page of `bytes` read, in order.
    /// - Throws: `ImageError` naming the file and page (a damaged page, an OCR engine that cannot start).
    func read(_ bytes: Data, pageCount: Int, file: String) async throws -> [ReadPage] {
        let options = ImageProcessingOptions(configuration)
        let pages = try PDFPages.split(bytes, into: (0..<pageCount).map { $0...$0 }, file: file, options: options)
        var read: [ReadPage] = []
        for (index, page) in pages.enumerated() {
            let name = "\(file)#page=\(index + 1)"
            if let text = try PDFPages.textPage(page, file: name, options: options) {
                read.append(ReadPage(content: ReceiptPageGrouping.PageContent(text), scan: nil))
            } else {
                let scan = try await startedEngine().process(page, file: name).page
                read.append(ReadPage(content: ReceiptPageGrouping.PageContent(scan), scan: scan))
            }
        }
        return read
    }

    /// The engine's reading of a receipt made of scanned `pages` (copied out as `document`), laid out as the worker
    /// lays out the document's pages, for the worker to use instead of reading them again; nil when a page was read
    /// from its text layer (the worker reads the document's text, or all of it by OCR, itself).
    /// - Throws: `ImageError` naming the file when `document` cannot be opened.
    func keptPage(of pages: ArraySlice<ReadPage>, document: Data, file: String) throws -> KeptPage? {
        let scans = pages.compactMap(\.scan)
        guard scans.count == pages.count else { return nil }
        let starts = try PDFPages.pageStarts(document, file: file, options: ImageProcessingOptions(configuration))
        return OCRPage.stacking(scans, starts: starts).map {
            KeptPage(page: $0, madeBy: configuration.ocr.engine, llmImage: nil)
        }
    }

    private func startedEngine() async throws -> ReceiptImageReader {
        if let engine { return try await engine.value }
        // Started once: a second page (another upload) arriving while it starts waits for the same engine.
        let configuration = configuration
        let starting = Task { try await ReceiptImageReader.make(configuration: configuration, count: 1) }
        engine = starting
        return try await starting.value
    }

    /// Stops the OCR engine, if one started.
    func shutdown() async {
        if let started = try? await engine?.value { await started.shutdown() }
        engine = nil
    }
}
