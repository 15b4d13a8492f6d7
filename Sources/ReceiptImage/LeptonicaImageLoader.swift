import BlockingExecution
import CTesseract
import Foundation
import PipelineCore

/// A decoded receipt page: upright, 8-bit gray, and a copy scaled for OCR.
package struct NormalizedImage {
    package let format: ImageFormat
    /// Dimensions the file declares.
    package let originalWidth: Int
    package let originalHeight: Int
    /// How the file says it is turned (EXIF; `.up` for formats without it).
    package let orientation: ExifOrientation
    /// Upright gray page at decoded size (a large JPEG is already reduced by the decoder).
    package let upright: PixImage
    /// `upright` scaled so its long side is within the OCR range (`ImageProcessingOptions.ocrLongSide(for:)`).
    package let ocrInput: PixImage
    /// The perceptual hash of `upright`.
    package let fingerprint: PageFingerprint?
    /// The decode and normalize stages, as they ran.
    package let timings: ImageStageTimings
}

/// Turns image bytes into a gray page sized for OCR, refusing bombs, thumbnails and damaged files first.
///
/// Every call blocks (Leptonica decodes on the calling thread): call it on a `ThreadExecutor`.
package struct LeptonicaImageLoader: Sendable {
    package let options: ImageProcessingOptions

    package init(options: ImageProcessingOptions) { self.options = options }

    /// Decodes, orients, converts to gray and scales.
    /// - Parameters:
    ///   - bytes: the whole image file.
    ///   - file: the name the operator knows the image by, for error messages.
    /// - Throws: `ImageError` (permanent) for empty, unknown, unsupported, oversized, undersized or damaged images.
    package func load(_ bytes: Data, file: String) throws(ImageError) -> NormalizedImage {
        LeptonicaDiagnostics.silence()
        var timings = ImageStageTimings()
        let (format, width, height, decoded) = try timings.measure(.decode) { () throws(ImageError) in
            let (format, width, height) = try checked(bytes, file: file)
            return (format, width, height, try decode(bytes, format: format, longSide: max(width, height), file: file))
        }
        let orientation = format == .jpeg ? ExifOrientation.read(fromJPEG: bytes) : .up
        let (upright, ocrInput, fingerprint) = try timings.measure(.normalize) { () throws(ImageError) in
            guard let upright = decoded.oriented(orientation).flatMap(grayscale),
                let ocrInput = upright.scaled(toLongSide: options.ocrLongSide(for: upright.longSide))
            else { throw .corrupt(file: file, format: format, detail: "conversion to gray failed") }
            return (upright, ocrInput, upright.fingerprint())
        }
        return NormalizedImage(
            format: format, originalWidth: width, originalHeight: height, orientation: orientation, upright: upright,
            ocrInput: ocrInput, fingerprint: fingerprint, timings: timings)
    }

    /// The guards every decode passes first: not empty, a supported signature, within the pixel budget and above
    /// the minimum side (from the header alone), and complete.
    /// - Returns: the format and the dimensions the file declares.
    func checked(_ bytes: Data, file: String) throws(ImageError) -> (format: ImageFormat, width: Int, height: Int) {
        guard !bytes.isEmpty else { throw .empty(file: file) }
        let format = try recognizedFormat(bytes, file: file)
        let (width, height) = try declaredSize(bytes, format: format, file: file)
        try checkCompleteness(bytes, format: format, file: file)
        return (format, width, height)
    }

    func recognizedFormat(_ bytes: Data, file: String) throws(ImageError) -> ImageFormat {
        switch detectImageFormat(leadingBytes: bytes.prefix(imageSignatureLength)) {
        case .supported(let format): return format
        case .unknown: throw .unrecognizedFormat(file: file, leadingBytes: bytes.prefix(8))
        }
    }

    /// Reads width and height from the header alone (for a PDF: the size its pages render at) and applies the pixel
    /// budget and the minimum side.
    func declaredSize(_ bytes: Data, format: ImageFormat, file: String) throws(ImageError) -> (Int, Int) {
        let (width, height) = try headerSize(bytes, format: format, file: file)
        guard width * height <= options.maxPixels else {
            throw .tooManyPixels(file: file, width: width, height: height, limit: options.maxPixels)
        }
        guard min(width, height) >= options.minSide else {
            throw .tooSmall(file: file, width: width, height: height, minimumSide: options.minSide)
        }
        return (width, height)
    }

    private func headerSize(_ bytes: Data, format: ImageFormat, file: String) throws(ImageError) -> (Int, Int) {
        switch format {
        case .pdf:
            return try PDFPages.renderedSize(bytes, file: file, options: options)
        case .heic, .avif:
            guard let size = HEIFDecoder.dimensions(of: bytes), size.width > 0, size.height > 0 else {
                throw .corrupt(file: file, format: format, detail: "the container is unreadable")
            }
            return size
        case .jpeg, .png, .tiff, .webp, .bmp, .gif:
            break
        }
        var (fileFormat, width, height, bitsPerSample, samplesPerPixel, hasColormap):
            (
                l_int32, l_int32, l_int32, l_int32, l_int32, l_int32
            ) = (0, 0, 0, 0, 0, 0)
        let status = bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> l_ok in
            let start = buffer.baseAddress!.assumingMemoryBound(to: l_uint8.self)
            guard format != .jpeg else { return pipeline_jpeg_dimensions(start, buffer.count, &width, &height) }
            return pixReadHeaderMem(
                start, buffer.count, &fileFormat, &width, &height, &bitsPerSample, &samplesPerPixel, &hasColormap)
        }
        guard status == 0, width > 0, height > 0 else {
            throw .corrupt(file: file, format: format, detail: "the header is unreadable")
        }
        return (Int(width), Int(height))
    }

    /// Rejects JPEG and PNG files cut short, with a clear reason.
    func checkCompleteness(_ bytes: Data, format: ImageFormat, file: String) throws(ImageError) {
        let tail = bytes.suffix(1024)
        switch format {
        case .jpeg:
            guard tail.firstRange(of: [0xFF, 0xD9]) != nil else {
                throw .corrupt(file: file, format: format, detail: "no end-of-image marker: the file is cut short")
            }
        case .png:
            guard tail.firstRange(of: Array("IEND".utf8)) != nil else {
                throw .corrupt(file: file, format: format, detail: "no IEND chunk: the file is cut short")
            }
        case .tiff, .webp, .bmp, .gif, .heic, .avif, .pdf:
            return
        }
    }

    /// Decodes; JPEG and PNG go straight to gray through the quiet libjpeg/libpng shims (a JPEG far larger than
    /// needed is reduced 2/4/8× inside the decoder), HEIC/AVIF and PDF through the color decoder (libheif, PDFium),
    /// other formats through Leptonica.
    private func decode(_ bytes: Data, format: ImageFormat, longSide: Int, file: String) throws(ImageError)
        -> PixImage
    {
        let reduction = Self.jpegReduction(
            longSide: longSide, needed: max(options.targetLongSide, options.compressLongSide))
        if [.heic, .avif, .pdf].contains(format) {
            return try decodeInColor(bytes, format: format, reduction: 1, file: file)
        }
        let pointer = bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> UnsafeMutablePointer<PIX>? in
            let start = buffer.baseAddress!.assumingMemoryBound(to: l_uint8.self)
            switch format {
            case .jpeg: return pipeline_jpeg_decode_gray(start, buffer.count, Int32(reduction))
            case .png: return pipeline_png_decode_gray(start, buffer.count)
            case .tiff, .webp, .bmp, .gif, .heic, .avif, .pdf: return pixReadMem(start, buffer.count)
            }
        }
        guard let image = PixImage(pointer) else {
            throw .corrupt(file: file, format: format, detail: "the decoder rejected the data")
        }
        return image
    }

    /// How much a JPEG whose long side is `longSide` is reduced inside the decoder (1, 2, 4 or 8): the most that
    /// still leaves `needed` pixels on the long side, and `neededAcross` on its short side `shortSide`.
    static func jpegReduction(longSide: Int, needed: Int, shortSide: Int = 0, neededAcross: Int = 0) -> Int {
        [8, 4, 2].first { longSide / $0 >= needed && shortSide / $0 >= neededAcross } ?? 1
    }

    /// The compress stage: the JPEG for the LLM, long side capped (never enlarged): in color when `llmColor` is on
    /// and the source has color, else the upright gray page (a page the OCR copy was shrunk to that same size is
    /// not scaled twice).
    /// - Parameters:
    ///   - image: the page `load` made of `bytes`.
    ///   - bytes: the whole image file, decoded again in color when `llmColor` is on.
    /// - Throws: `ImageError.encodeFailed`.
    package func compress(_ image: NormalizedImage, bytes: Data, file: String) throws(ImageError) -> [UInt8] {
        let longSide = copyLongSide(bytes, format: image.format, file: file)
        if options.llmColor,
            let color = ColorCopy.jpeg(
                of: bytes, format: image.format, file: file, loader: self,
                declaredLongSide: max(image.originalWidth, image.originalHeight),
                orientation: image.orientation, longSide: longSide, quality: options.jpegQuality)
        {
            return color
        }
        let upright = image.upright
        let capped: PixImage?
        if upright.longSide <= longSide {
            capped = upright
        } else if image.ocrInput.longSide == longSide {
            capped = image.ocrInput
        } else {
            capped = upright.scaled(toLongSide: longSide)
        }
        guard let jpeg = capped?.jpeg(quality: options.jpegQuality) else { throw .encodeFailed(file: file) }
        return jpeg
    }

    /// The long side of the LLM's copy (which the review page shows for formats browsers do not): `compressLongSide`;
    /// for a PDF, its pages stacked with each page's long side at `compressLongSide` (`PDFLayout`), so every page of
    /// a receipt of several is as legible as a one-page receipt.
    func copyLongSide(_ bytes: Data, format: ImageFormat, file: String) -> Int {
        guard format == .pdf,
            let size = try? PDFPages.renderedSize(
                bytes, file: file, options: options, longSide: options.compressLongSide)
        else { return options.compressLongSide }
        return max(size.width, size.height)
    }

    private func grayscale(_ image: PixImage) -> PixImage? {
        if image.depth == 8 && pixGetColormap(image.pointer) == nil { return image }
        return PixImage(pixConvertTo8(image.pointer, 0))
    }
}
