import CPDFium
import CTesseract
import Foundation
import PipelineCore

/// A receipt PDF's pages: checked against the `pdf.*` limits, read from their text layer, or rendered.
///
/// Every call blocks while PDFium works (under its process-wide lock): call it on an engine's thread.
package enum PDFPages {
    /// Resolution pages are rendered at, unless `image.maxPixels` asks for less.
    static let dotsPerInch = 300.0
    /// A page whose text layer has fewer visible characters is read as a scan.
    static let minimumTextCharacters = 10
    /// Characters read from one page's text layer at most (the decompressed-size guard of the text path).
    static let maximumTextCharacters = 200_000

    /// Opens `bytes` and applies the limits: not encrypted or damaged, at most `pdf.maxPages` pages, none larger than
    /// `pdf.maxPageSide`.
    /// - Returns: the number of pages.
    /// - Throws: `ImageError` naming the file, the problem and the remedy.
    package static func check(_ bytes: Data, file: String, options: ImageProcessingOptions) throws(ImageError) -> Int {
        try PDFium.withLibrary(at: options.pdfLibrary, file: file) { api throws(ImageError) in
            try open(bytes, api: api, file: file, options: options).document.pageCount
        }
    }

    /// Where each page starts in the pages laid out one below the other (`render`, `textPage`), as a fraction of the
    /// whole height from the top, after the same checks as `check`.
    package static func pageStarts(_ bytes: Data, file: String, options: ImageProcessingOptions) throws(ImageError)
        -> [Double]
    {
        try PDFium.withLibrary(at: options.pdfLibrary, file: file) { api throws(ImageError) in
            let layout = try open(bytes, api: api, file: file, options: options).layout
            return layout.pages.map { Double($0.top) / Double(layout.height) }
        }
    }

    /// Each range of pages (zero-based, in order) copied out as a PDF of its own, after the same checks as `check`.
    package static func split(
        _ bytes: Data, into ranges: [ClosedRange<Int>], file: String, options: ImageProcessingOptions
    ) throws(ImageError) -> [Data] {
        try PDFium.withLibrary(at: options.pdfLibrary, file: file) { api throws(ImageError) in
            let (document, _) = try open(bytes, api: api, file: file, options: options)
            var documents: [Data] = []
            for range in ranges {
                let pages =
                    range.count == 1 ? "\(range.lowerBound + 1)" : "\(range.lowerBound + 1)-\(range.upperBound + 1)"
                guard range.upperBound < document.pageCount, let copy = api.CreateNewDocument() else {
                    throw .corrupt(
                        file: file, format: .pdf, detail: "PDFium could not make a document of pages \(pages)")
                }
                defer { api.CloseDocument(copy) }
                guard api.ImportPages(copy, document.pointer, pages, 0) != 0,
                    let saved = PDFWriteBuffer.save(copy, api: api)
                else {
                    throw .corrupt(file: file, format: .pdf, detail: "pages \(pages) could not be copied out")
                }
                documents.append(saved)
            }
            return documents
        }
    }

    /// The pages' text layer as one OCR page (pages top to bottom, in the coordinates of `render`'s image), or nil
    /// when some page has no usable text layer (a scan): then the page is rendered and read by OCR.
    package static func textPage(_ bytes: Data, file: String, options: ImageProcessingOptions) throws(ImageError)
        -> OCRPage?
    {
        try PDFium.withLibrary(at: options.pdfLibrary, file: file) { api throws(ImageError) -> OCRPage? in
            let (document, layout) = try open(bytes, api: api, file: file, options: options)
            var lines: [OCRLine] = []
            for (index, placement) in layout.pages.enumerated() {
                guard let page = api.LoadPage(document.pointer, Int32(index)) else {
                    throw .corrupt(file: file, format: .pdf, detail: "page \(index + 1) could not be loaded")
                }
                defer { api.ClosePage(page) }
                guard let pageLines = PDFTextLayer.lines(of: page, api: api, placement: placement) else { return nil }
                lines += pageLines
            }
            return OCRPage(lines: lines, width: layout.width, height: layout.height, meanConfidence: 100)
        }
    }

    /// The pages rendered top to bottom into one 32-bit RGB image on white: at 300 dpi, less when the whole would
    /// pass `image.maxPixels` or, when given, a page's long side would pass `longSide` (see `PDFLayout`).
    /// - Throws: `ImageError` for the limits, and `.pdfPageTimedOut` when a page renders longer than `pdf.pageTimeout`.
    package static func render(_ bytes: Data, file: String, options: ImageProcessingOptions, longSide: Int? = nil)
        throws(ImageError) -> PixImage
    {
        try PDFium.withLibrary(at: options.pdfLibrary, file: file) { api throws(ImageError) -> PixImage in
            let (document, layout) = try open(bytes, api: api, file: file, options: options, longSide: longSide)
            guard let stack = PixImage(pixCreate(Int32(layout.width), Int32(layout.height), 32)) else {
                throw .corrupt(file: file, format: .pdf, detail: "no memory for the rendered pages")
            }
            _ = pixSetAllArbitrary(stack.pointer, 0xFFFF_FF00)
            for (index, placement) in layout.pages.enumerated() {
                let rendered = try PDFRenderer.render(
                    document, index: index, placement: placement, timeout: options.pdfPageTimeout, file: file)
                _ = pixRasterop(
                    stack.pointer, 0, Int32(placement.top), Int32(placement.width), Int32(placement.height),
                    PIX_SRC, rendered.pointer, 0, 0)
            }
            return stack
        }
    }

    /// The size `render` makes (without rendering), for the pixel guard and the minimum side, and the LLM's copy.
    static func renderedSize(_ bytes: Data, file: String, options: ImageProcessingOptions, longSide: Int? = nil)
        throws(ImageError) -> (width: Int, height: Int)
    {
        try PDFium.withLibrary(at: options.pdfLibrary, file: file) { api throws(ImageError) in
            let layout = try open(bytes, api: api, file: file, options: options, longSide: longSide).layout
            return (layout.width, layout.height)
        }
    }

    /// Opens and checks the document and lays its pages out one below the other.
    private static func open(
        _ bytes: Data, api: PDFiumAPI, file: String, options: ImageProcessingOptions, longSide: Int? = nil
    ) throws(ImageError) -> (document: PDFDocumentHandle, layout: PDFLayout) {
        let document = try PDFDocumentHandle(bytes, api: api, file: file)
        let count = document.pageCount
        guard count > 0 else { throw .corrupt(file: file, format: .pdf, detail: "it has no pages") }
        guard count <= options.pdfMaxPages else {
            throw .tooManyPages(file: file, pages: count, limit: options.pdfMaxPages)
        }
        var sizes: [(width: Double, height: Double)] = []
        for index in 0..<count {
            guard let size = document.pageSize(index) else {
                throw .corrupt(file: file, format: .pdf, detail: "page \(index + 1) has no readable size")
            }
            guard max(size.width, size.height) <= Double(options.pdfMaxPageSide) else {
                throw .pdfPageTooLarge(
                    file: file, page: index + 1, width: size.width, height: size.height, limit: options.pdfMaxPageSide)
            }
            sizes.append(size)
        }
        return (document, PDFLayout(pageSizes: sizes, maxPixels: options.maxPixels, longSide: longSide))
    }
}

/// Where each page lands in the stacked image, in pixels.
struct PDFLayout {
    struct Placement {
        let top: Int
        let width: Int
        let height: Int
    }

    let pages: [Placement]
    let width: Int
    let height: Int

    /// Pages at 300 dpi one below the other, scaled down together when the whole would pass `maxPixels`. With
    /// `longSide` (the LLM's and the review page's copy), each page's long side is at most `longSide`, as a one-page
    /// receipt's copy is, so every page of a receipt stays as legible as a receipt of one page; the whole at most
    /// `longSide` times `ReceiptPageGrouping.maximumPagesPerReceipt` (a receipt of more pages waits for review
    /// anyway, and its copy stays one a browser and an LLM take).
    init(pageSizes: [(width: Double, height: Double)], maxPixels: Int, longSide: Int?) {
        // The stacked image is as wide as the widest page and as tall as all of them: that is what must fit.
        let points = (pageSizes.map(\.width).max() ?? 1) * pageSizes.reduce(0.0) { $0 + $1.height }
        var scale = min(PDFPages.dotsPerInch / 72, (Double(maxPixels) / points).squareRoot())
        if let longSide {
            let pageLongSide = pageSizes.map { max($0.width, $0.height) }.max() ?? 1
            let stackedLongSide = max(
                pageSizes.map(\.width).max() ?? 1, pageSizes.reduce(0.0) { $0 + $1.height })
            let copyLongSide = Double(longSide * ReceiptPageGrouping.maximumPagesPerReceipt)
            scale = min(scale, Double(longSide) / pageLongSide, copyLongSide / stackedLongSide)
        }
        var top = 0
        var pages: [Placement] = []
        for size in pageSizes {
            let placement = Placement(
                top: top, width: max(1, Int((size.width * scale).rounded(.down))),
                height: max(1, Int((size.height * scale).rounded(.down))))
            pages.append(placement)
            top += placement.height
        }
        self.pages = pages
        self.width = pages.map(\.width).max() ?? 1
        self.height = max(1, top)
    }
}

/// Collects what FPDF_SaveAsCopy writes.
private final class PDFWriteBuffer {
    var data = Data()

    static func save(_ document: FPDF_DOCUMENT, api: PDFiumAPI) -> Data? {
        let buffer = PDFWriteBuffer()
        var writer = PDFiumBufferWriter(
            base: PDFiumFileWrite(
                version: 1,
                write_block: { writer, bytes, size in
                    guard let writer, let bytes else { return 0 }
                    let owner = writer.withMemoryRebound(to: PDFiumBufferWriter.self, capacity: 1) {
                        Unmanaged<PDFWriteBuffer>.fromOpaque($0.pointee.owner).takeUnretainedValue()
                    }
                    owner.data.append(bytes.assumingMemoryBound(to: UInt8.self), count: Int(size))
                    return 1
                }),
            owner: Unmanaged.passUnretained(buffer).toOpaque())
        let saved = withUnsafeMutablePointer(to: &writer) { pointer in
            pointer.withMemoryRebound(to: PDFiumFileWrite.self, capacity: 1) { api.SaveAsCopy(document, $0, 0) }
        }
        return saved != 0 ? buffer.data : nil
    }
}
