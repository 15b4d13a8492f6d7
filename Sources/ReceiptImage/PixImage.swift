import BlockingExecution
import CTesseract
import PipelineCore

/// Owns one Leptonica `Pix` and destroys it when released.
///
/// Not thread-safe and not `Sendable`: a `PixImage` lives and dies on the thread that made it (an engine's
/// `ThreadExecutor`). Every method blocks.
package final class PixImage {
    package let pointer: UnsafeMutablePointer<PIX>

    /// Takes ownership of `pointer`; returns nil for a null result of a Leptonica call.
    package init?(_ pointer: UnsafeMutablePointer<PIX>?) {
        guard let pointer else { return nil }
        self.pointer = pointer
    }

    deinit {
        var owned: UnsafeMutablePointer<PIX>? = pointer
        pixDestroy(&owned)
    }

    package var width: Int { Int(pixGetWidth(pointer)) }
    package var height: Int { Int(pixGetHeight(pointer)) }
    package var depth: Int { Int(pixGetDepth(pointer)) }
    package var longSide: Int { max(width, height) }

    /// Encodes with a Leptonica writer that allocates the output buffer; nil when it fails.
    package func encode(
        _ writer: (UnsafeMutablePointer<UnsafeMutablePointer<l_uint8>?>, UnsafeMutablePointer<Int>) -> l_ok
    ) -> [UInt8]? {
        var buffer: UnsafeMutablePointer<l_uint8>?
        var size = 0
        guard writer(&buffer, &size) == 0, let buffer else { return nil }
        defer { lept_free(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: size))
    }

    /// A JPEG of this image, or nil when encoding fails.
    package func jpeg(quality: Int) -> [UInt8]? {
        encode { pixWriteMemJpeg($0, $1, pointer, l_int32(quality), 0) }
    }

    /// A lossless PNG of this image (for handing the exact OCR input to other tools), or nil.
    package func png() -> [UInt8]? {
        encode { pixWriteMemPng($0, $1, pointer, 0) }
    }

    /// A copy of the part of this image inside `box` (clipped to the image), or nil when they do not overlap.
    package func cropped(to box: BoundingBox) -> PixImage? {
        var region = boxCreate(l_int32(box.left), l_int32(box.top), l_int32(box.width), l_int32(box.height))
        defer { boxDestroy(&region) }
        return PixImage(pixClipRectangle(pointer, region, nil))
    }

    /// The page's perceptual hash: the page in gray, shrunk to a `PageFingerprint.side`-pixel square by averaging;
    /// nil when Leptonica cannot make the thumbnail.
    func fingerprint() -> PageFingerprint? {
        let gray = depth == 32 ? PixImage(pixConvertRGBToLuminance(pointer)) : self
        let side = l_int32(PageFingerprint.side)
        guard let gray, let thumbnail = PixImage(pixScaleToSize(gray.pointer, side, side))?.packedPixels() else {
            return nil
        }
        return PageFingerprint(thumbnail: thumbnail)
    }

    /// A copy scaled so its long side is `longSide` (shrinks or enlarges); self when already that size.
    package func scaled(toLongSide longSide: Int) -> PixImage? {
        guard longSide != self.longSide else { return self }
        let factor = Float(longSide) / Float(self.longSide)
        return PixImage(pixScale(pointer, factor, factor))
    }
}
