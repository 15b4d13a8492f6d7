import CTesseract
import Foundation
import PipelineCore

/// Born-digital PDFs: the text layer becomes the page directly (exact text, no OCR), and a rendering of the pages at
/// the LLM copy's size becomes that copy.
package enum PDFTextReceipt {
    /// The receipt read from its text layer, or nil when some page has none (a scan: read it by OCR instead).
    /// Blocks while PDFium works: call it off the cooperative pool. `readBy` is the engine the receipt would be read
    /// with otherwise, which the page is kept as.
    /// - Throws: `ImageError` for encrypted, damaged or oversized PDFs (see `PDFPages`).
    package static func read(_ bytes: Data, file: String, options: ImageProcessingOptions, readBy: OCREngineChoice)
        throws(ImageError)
        -> ProcessedImage?
    {
        LeptonicaDiagnostics.silence()
        var timings = ImageStageTimings()
        let page = try timings.measure(.decode) { () throws(ImageError) -> OCRPage? in
            try PDFPages.textPage(bytes, file: file, options: options)
        }
        guard let page else { return nil }
        let jpeg = try timings.measure(.compress) { () throws(ImageError) -> [UInt8] in
            let rendered = try PDFPages.render(bytes, file: file, options: options, longSide: options.compressLongSide)
            let copy =
                options.llmColor && ColorCopy.hasColor(rendered)
                ? rendered : PixImage(pixConvertRGBToLuminance(rendered.pointer))
            guard let jpeg = copy?.jpeg(quality: options.jpegQuality) else { throw .encodeFailed(file: file) }
            return jpeg
        }
        return ProcessedImage(
            format: .pdf, originalWidth: page.width, originalHeight: page.height, page: page,
            compressedJPEG: Data(jpeg), originalBytes: bytes.count, timings: timings, readBy: readBy,
            pageSource: .pdfText)
    }
}
