import Foundation
import PipelineCore
import ReceiptImage
import ReceiptReading

/// Reads the pages of a PDF one by one, for splitting it into receipts at ingest (`ingest.pdfPages: content`): a
/// page's text layer when it has one, else the configured OCR engine, which starts on the first scanned page and
/// once only. Whoever makes one calls `shutdown` when done.
actor IngestPageReader {
    private let configuration: PipelineConfiguration
    /// The engine for scanned pages, once the first one asked for it.
    private var engine: Task<ReceiptImageReader, any Error>?

    init(configuration: PipelineConfiguration) {
        self.configuration = configuration
    }

    /// What each page of `bytes` holds, in order.
    /// - Throws: `ImageError` naming the file and page (a damaged page, an OCR engine that cannot start).
    func contents(of bytes: Data, pageCount: Int, file: String) async throws -> [ReceiptPageGrouping.PageContent] {
        let options = ImageProcessingOptions(configuration)
        let pages = try PDFPages.split(bytes, into: (0..<pageCount).map { $0...$0 }, file: file, options: options)
        var contents: [ReceiptPageGrouping.PageContent] = []
        for (index, page) in pages.enumerated() {
            let name = "\(file)#page=\(index + 1)"
            if let text = try PDFPages.textPage(page, file: name, options: options) {
                contents.append(ReceiptPageGrouping.PageContent(text))
            } else {
                contents.append(
                    ReceiptPageGrouping.PageContent(try await startedEngine().process(page, file: name).page))
            }
        }
        return contents
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
