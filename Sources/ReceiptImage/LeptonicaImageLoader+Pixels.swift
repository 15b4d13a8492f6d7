import CTesseract
import Foundation
import PipelineCore

/// A receipt image decoded in color for an engine that reads pixels itself, with the gray JPEG kept for the LLM.
public struct DecodedReceiptImage: Sendable {
    public let format: ImageFormat
    /// Dimensions the file declares.
    public let originalWidth: Int
    public let originalHeight: Int
    /// The upright page at decoded size (a large JPEG is reduced inside the decoder): RGB when the file has color.
    public let pixels: PixelImage
    /// The upright page in gray, long side capped at `compressLongSide` (a PDF's: see `copyLongSide`), as JPEG.
    public let compressedJPEG: Data
    /// The perceptual hash of the upright page.
    public let fingerprint: PageFingerprint?
    /// The decode, normalize and compress stages, as they ran.
    public let timings: ImageStageTimings
}

/// Decodes receipt images in color for engines that read pixels themselves (PP-OCR).
public enum ReceiptPixelDecoder {
    /// The pixels a JPEG keeps across its short side when the decoder reduces it: a long receipt (a 1080 × 4581
    /// scan) reduced by its long side alone was read at 540 px across, its text too small to read. No train or dev
    /// image is reduced less for it (the largest are phone photos, 1,224 px across or more when halved).
    static let readableAcross = 900

    /// Decodes an image with the same guards as the Tesseract path (signature, pixel budget, minimum side,
    /// completeness) and EXIF orientation, keeping color. Blocks while Leptonica decodes: call it on an engine thread.
    /// - Parameters:
    ///   - bytes: the whole image file.
    ///   - file: the name the operator knows the image by, for error messages.
    /// - Throws: `ImageError` (permanent) for empty, unknown, unsupported, oversized, undersized or damaged images.
    public static func decode(_ bytes: Data, file: String, options: ImageProcessingOptions) throws(ImageError)
        -> DecodedReceiptImage
    {
        try LeptonicaImageLoader(options: options).decodePixels(bytes, file: file)
    }
}

extension LeptonicaImageLoader {
    func decodePixels(_ bytes: Data, file: String) throws(ImageError) -> DecodedReceiptImage {
        LeptonicaDiagnostics.silence()
        var timings = ImageStageTimings()
        let (format, width, height, decoded) = try timings.measure(.decode) { () throws(ImageError) in
            let (format, width, height) = try checked(bytes, file: file)
            return (
                format, width, height,
                try decodeColor(
                    bytes, format: format, longSide: max(width, height), shortSide: min(width, height), file: file)
            )
        }
        let (upright, pixels, fingerprint) = try timings.measure(.normalize) { () throws(ImageError) in
            let orientation = format == .jpeg ? ExifOrientation.read(fromJPEG: bytes) : .up
            guard let upright = decoded.oriented(orientation), let pixels = upright.packedPixels() else {
                throw .corrupt(file: file, format: format, detail: "conversion to RGB failed")
            }
            return (upright, pixels, upright.fingerprint())
        }
        let jpeg = try timings.measure(.compress) { () throws(ImageError) in
            let gray = upright.depth == 32 ? PixImage(pixConvertRGBToLuminance(upright.pointer)) : upright
            let longSide = copyLongSide(bytes, format: format, file: file)
            guard let small = gray?.scaled(toLongSide: min(longSide, upright.longSide)),
                let jpeg = small.jpeg(quality: options.jpegQuality)
            else { throw .encodeFailed(file: file) }
            return jpeg
        }
        return DecodedReceiptImage(
            format: format, originalWidth: width, originalHeight: height, pixels: pixels, compressedJPEG: Data(jpeg),
            fingerprint: fingerprint, timings: timings)
    }

    /// Decodes to 32-bit RGB for color files and 8-bit gray otherwise (colormaps removed, other depths made gray).
    /// A JPEG far larger than `load` would need is reduced 2/4/8× inside the decoder, by the same rule, but never
    /// below `ReceiptPixelDecoder.readableAcross` on its short side; a JPEG with decoder warnings counts as damaged,
    /// as in `load`.
    private func decodeColor(_ bytes: Data, format: ImageFormat, longSide: Int, shortSide: Int, file: String)
        throws(ImageError) -> PixImage
    {
        let reduction = Self.jpegReduction(
            longSide: longSide, needed: max(options.targetLongSide, options.compressLongSide), shortSide: shortSide,
            neededAcross: ReceiptPixelDecoder.readableAcross)
        var image = try decodeInColor(bytes, format: format, reduction: reduction, file: file)
        if pixGetColormap(image.pointer) != nil,
            let plain = PixImage(pixRemoveColormap(image.pointer, l_int32(REMOVE_CMAP_BASED_ON_SRC)))
        {
            image = plain
        }
        if image.depth != 32 && image.depth != 8, let gray = PixImage(pixConvertTo8(image.pointer, 0)) {
            image = gray
        }
        guard image.depth == 32 || image.depth == 8 else {
            throw .corrupt(file: file, format: format, detail: "unsupported pixel depth \(image.depth)")
        }
        return image
    }

    /// The one color decoder (the pixels PP-OCR reads, the LLM's color copy, and every HEIC/AVIF or PDF page): the
    /// image as decoded, colormap kept; a JPEG reduced `reduction`× inside the decoder, HEIC/AVIF through libheif
    /// (upright), a PDF's pages rendered by PDFium.
    /// - Throws: `ImageError` when the decoder rejects the data or, for a JPEG, warns (corrupt or truncated data).
    func decodeInColor(_ bytes: Data, format: ImageFormat, reduction: Int, file: String) throws(ImageError)
        -> PixImage
    {
        var warnings: l_int32 = 0
        let pointer: UnsafeMutablePointer<PIX>?
        switch format {
        case .pdf:
            return try PDFPages.render(bytes, file: file, options: options)
        case .heic, .avif:
            guard let image = HEIFDecoder.decode(bytes) else {
                throw .corrupt(file: file, format: format, detail: "libheif could not decode the image")
            }
            return image
        case .jpeg, .png, .tiff, .webp, .bmp, .gif:
            pointer = bytes.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> UnsafeMutablePointer<PIX>? in
                let start = buffer.baseAddress!.assumingMemoryBound(to: l_uint8.self)
                return format == .jpeg
                    ? pixReadMemJpeg(start, buffer.count, 0, l_int32(reduction), &warnings, 0)
                    : pixReadMem(start, buffer.count)
            }
        }
        let image = PixImage(pointer)
        guard let image, warnings == 0 else {
            throw .corrupt(file: file, format: format, detail: "the decoder rejected the data")
        }
        return image
    }
}

extension PixImage {
    /// The pixels packed row by row: 3 bytes (R, G, B) per pixel for 32-bit images, 1 for 8-bit gray; nil for other
    /// depths.
    func packedPixels() -> PixelImage? {
        guard depth == 32 || depth == 8, let data = pixGetData(pointer) else { return nil }
        let channels = depth == 32 ? 3 : 1
        let wordsPerLine = Int(pixGetWpl(pointer))
        let (width, height) = (self.width, self.height)
        var bytes = [UInt8](repeating: 0, count: width * height * channels)
        bytes.withUnsafeMutableBufferPointer { output in
            for y in 0..<height {
                let line = data + y * wordsPerLine
                var index = y * width * channels
                if channels == 3 {
                    // Leptonica keeps an RGB pixel as one 32-bit word 0xRRGGBBAA.
                    for x in 0..<width {
                        let word = line[x]
                        output[index] = UInt8(truncatingIfNeeded: word >> 24)
                        output[index + 1] = UInt8(truncatingIfNeeded: word >> 16)
                        output[index + 2] = UInt8(truncatingIfNeeded: word >> 8)
                        index += 3
                    }
                } else {
                    // Gray bytes sit in each word from the most significant end.
                    for x in 0..<width {
                        output[index] = UInt8(truncatingIfNeeded: line[x >> 2] >> (24 - 8 * UInt32(x & 3)))
                        index += 1
                    }
                }
            }
        }
        return PixelImage(width: width, height: height, channels: channels, bytes: bytes)
    }
}
