import Foundation

/// How long each image stage took for one receipt.
public struct ImageStageTimings: Sendable, Equatable {
    /// Header check and decoding (with in-decoder reduction for large JPEGs).
    public var decode: Duration = .zero
    /// EXIF orientation, 8-bit gray and scaling to the OCR size.
    public var normalize: Duration = .zero
    /// Tesseract recognition (all passes).
    public var ocr: Duration = .zero
    /// JPEG encoding of the copy kept for the LLM.
    public var compress: Duration = .zero

    public init() {}

    /// The four stages together.
    public var total: Duration { decode + normalize + ocr + compress }
}

/// The result of the image and OCR stages for one receipt image.
public struct ProcessedImage: Sendable {
    /// The format found by magic bytes.
    public var format: ImageFormat
    /// Dimensions declared by the original image (before orientation and scaling).
    public var originalWidth: Int
    public var originalHeight: Int
    /// The recognized text with boxes, in the coordinates of the scaled page.
    public var page: OCRPage
    /// The grayscale JPEG kept for the vision LLM.
    public var compressedJPEG: Data
    /// Bytes of the original file and of `compressedJPEG`.
    public var originalBytes: Int
    public var compressedBytes: Int { compressedJPEG.count }
    public var timings: ImageStageTimings

    public init(
        format: ImageFormat, originalWidth: Int, originalHeight: Int, page: OCRPage, compressedJPEG: Data,
        originalBytes: Int, timings: ImageStageTimings
    ) {
        self.format = format
        self.originalWidth = originalWidth
        self.originalHeight = originalHeight
        self.page = page
        self.compressedJPEG = compressedJPEG
        self.originalBytes = originalBytes
        self.timings = timings
    }
}
