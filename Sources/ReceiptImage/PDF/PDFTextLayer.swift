import CPDFium
import CTesseract
import Foundation
import PipelineCore

/// Renders one PDF page into a 32-bit RGB image.
enum PDFRenderer {
    /// Renders page `index` of `document` at `placement`'s size on white.
    /// - Throws: `.pdfPageTimedOut` past `timeout`, `.corrupt` when PDFium fails.
    static func render(
        _ document: PDFDocumentHandle, index: Int, placement: PDFLayout.Placement, timeout: Duration, file: String
    ) throws(ImageError) -> PixImage {
        let api = document.api
        guard let page = api.LoadPage(document.pointer, Int32(index)) else {
            throw .corrupt(file: file, format: .pdf, detail: "page \(index + 1) could not be loaded")
        }
        defer { api.ClosePage(page) }
        let (width, height) = (Int32(placement.width), Int32(placement.height))
        guard let bitmap = api.BitmapCreate(width, height, 0) else {
            throw .corrupt(file: file, format: .pdf, detail: "no memory to render page \(index + 1)")
        }
        defer { api.BitmapDestroy(bitmap) }
        _ = api.BitmapFillRect(bitmap, 0, 0, width, height, 0xFFFF_FFFF)
        let status = withUnsafePointer(to: api) {
            pdfium_render_within($0, bitmap, page, width, height, Double(timeout.milliseconds) / 1000)
        }
        switch status {
        case 0: break
        case 1: throw .pdfPageTimedOut(file: file, page: index + 1, limit: timeout)
        default: throw .corrupt(file: file, format: .pdf, detail: "page \(index + 1) could not be rendered")
        }
        guard let buffer = api.BitmapGetBuffer(bitmap),
            let image = PixImage(
                pipeline_pix_from_interleaved(
                    buffer.assumingMemoryBound(to: UInt8.self), width, height, api.BitmapGetStride(bitmap), 4, 2, 1, 0))
        else { throw .corrupt(file: file, format: .pdf, detail: "no memory for page \(index + 1)") }
        return image
    }
}

/// Reads a page's text layer: each character with its box, grouped into words and lines.
enum PDFTextLayer {
    /// The page's lines in the stacked image's coordinates, or nil when it has fewer than
    /// `PDFPages.minimumTextCharacters` visible characters (a scan) or more than `PDFPages.maximumTextCharacters`.
    static func lines(of page: FPDF_PAGE, api: PDFiumAPI, placement: PDFLayout.Placement) -> [OCRLine]? {
        guard let text = api.TextLoadPage(page) else { return nil }
        defer { api.TextClosePage(text) }
        let count = Int(api.TextCountChars(text))
        guard count <= PDFPages.maximumTextCharacters else { return nil }
        var glyphs: [PlacedGlyph] = []
        for index in 0..<count {
            guard let scalar = Unicode.Scalar(api.TextGetUnicode(text, Int32(index))),
                !scalar.properties.isWhitespace, scalar.properties.generalCategory != .control
            else { continue }
            var rect = PDFiumRect()
            guard api.TextGetLooseCharBox(text, Int32(index), &rect) != 0 else { continue }
            var corners: [(x: Int32, y: Int32)] = []
            for (x, y) in [(rect.left, rect.top), (rect.right, rect.bottom)] {
                var deviceX: Int32 = 0
                var deviceY: Int32 = 0
                _ = api.PageToDevice(
                    page, 0, Int32(placement.top), Int32(placement.width), Int32(placement.height), 0, Double(x),
                    Double(y), &deviceX, &deviceY)
                corners.append((deviceX, deviceY))
            }
            let left = Int(min(corners[0].x, corners[1].x))
            let top = Int(min(corners[0].y, corners[1].y))
            let box = BoundingBox(
                left: left, top: top, width: Int(max(corners[0].x, corners[1].x)) - left,
                height: Int(max(corners[0].y, corners[1].y)) - top)
            glyphs.append(PlacedGlyph(text: String(Character(scalar)), box: box))
        }
        guard glyphs.count >= PDFPages.minimumTextCharacters else { return nil }
        return PlacedGlyph.lines(glyphs)
    }
}
