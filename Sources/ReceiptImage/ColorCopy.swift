import CTesseract
import Foundation
import PipelineCore

/// The color JPEG of a receipt for the vision model, made from the original bytes when the source has color.
///
/// Blocks while Leptonica decodes: call it on the engine's thread.
enum ColorCopy {
    /// Share of the mid-tone pixels that must be colored for a page to count as color: scans stored as RGB carry
    /// a little chroma noise, a photo of a receipt with a colored logo or stamp well above this.
    static let colorShare: Float = 0.02

    /// An upright JPEG of `bytes` in color, long side at most `longSide`, or nil when the source has no color
    /// (gray, gray stored as RGB, or a gray palette) or cannot be decoded in color.
    /// - Parameters:
    ///   - loader: decodes (its one color decoder).
    ///   - declaredLongSide: the long side the file's header declares (a JPEG larger than needed is
    ///     reduced by the decoder).
    static func jpeg(
        of bytes: Data, format: ImageFormat, file: String, loader: LeptonicaImageLoader, declaredLongSide: Int,
        orientation: ExifOrientation, longSide: Int, quality: Int
    ) -> [UInt8]? {
        let reduction = LeptonicaImageLoader.jpegReduction(longSide: declaredLongSide, needed: longSide)
        // A PDF is rendered at the copy's size straight away (each page's long side at `compressLongSide`, whose
        // stack `longSide` is), not at 300 dpi and then shrunk.
        let decoded =
            format == .pdf
            ? try? PDFPages.render(
                bytes, file: file, options: loader.options, longSide: loader.options.compressLongSide)
            : try? loader.decodeInColor(bytes, format: format, reduction: reduction, file: file)
        guard let decoded, hasColor(decoded)
        else { return nil }
        let color = decoded.depth == 32 ? decoded : PixImage(pixConvertTo32(decoded.pointer))
        guard let upright = color?.oriented(orientation) else { return nil }
        let capped = upright.longSide > longSide ? upright.scaled(toLongSide: longSide) : upright
        return capped?.jpeg(quality: quality)
    }

    /// Whether the page has color worth sending: a palette with color, or RGB whose colored share is above
    /// ``colorShare``.
    static func hasColor(_ image: PixImage) -> Bool {
        if let colormap = pixGetColormap(image.pointer) {
            var hasColor: Int32 = 0
            return pixcmapHasColor(colormap, &hasColor) == 0 && hasColor != 0
        }
        guard image.depth == 32 else { return false }
        var pixelShare: Float = 0
        var colored: Float = 0
        guard pixColorFraction(image.pointer, 20, 244, 24, 4, &pixelShare, &colored) == 0 else { return false }
        return colored >= colorShare
    }
}

extension PixImage {
    /// This image turned upright as its EXIF orientation says (mirrored first, then quarter turns clockwise).
    package func oriented(_ orientation: ExifOrientation) -> PixImage? {
        var result = self
        if orientation.isMirrored {
            guard let mirrored = PixImage(pixFlipLR(nil, result.pointer)) else { return nil }
            result = mirrored
        }
        if orientation.clockwiseQuarterTurns != 0 {
            guard let turned = PixImage(pixRotateOrth(result.pointer, l_int32(orientation.clockwiseQuarterTurns)))
            else { return nil }
            result = turned
        }
        return result
    }
}
