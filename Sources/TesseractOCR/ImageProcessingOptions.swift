import PipelineCore

/// The `image.*` and `ocr.*` settings the image stage and the OCR engine use.
public struct ImageProcessingOptions: Sendable, Equatable {
    /// Images declaring more pixels are rejected before decoding.
    public var maxPixels: Int
    /// Images with a shorter side are rejected as unreadable.
    public var minSide: Int
    /// Long side of the page Tesseract reads (larger pages shrink, smaller ones grow).
    public var targetLongSide: Int
    /// Long side cap of the JPEG kept for the LLM (never enlarged).
    public var compressLongSide: Int
    /// JPEG quality of that copy.
    public var jpegQuality: Int
    /// Tesseract language(s), e.g. `eng`.
    public var language: String
    /// Folder of the `.traineddata` files.
    public var tessdata: String
    /// Tesseract page segmentation mode.
    public var pageSegmentation: Int
    /// Per-image OCR deadline, enforced inside Tesseract.
    public var timeout: Duration

    /// Takes the values from the pipeline configuration.
    public init(_ configuration: PipelineConfiguration) {
        maxPixels = configuration.image.maxPixels
        minSide = configuration.image.minSide
        targetLongSide = configuration.ocr.targetLongSide
        compressLongSide = configuration.image.compressLongSide
        jpegQuality = configuration.image.jpegQuality
        language = configuration.ocr.language
        tessdata = configuration.ocr.tessdata
        pageSegmentation = configuration.ocr.pageSegmentation
        timeout = configuration.ocr.timeout
    }
}
