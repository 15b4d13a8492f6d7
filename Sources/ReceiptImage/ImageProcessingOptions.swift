import PipelineCore

/// The `image.*` and `ocr.*` settings the image stage and the OCR engine use.
public struct ImageProcessingOptions: Sendable, Equatable {
    /// Images declaring more pixels are rejected before decoding.
    public var maxPixels: Int
    /// The PDFium library (`pdf.library`).
    public var pdfLibrary: String
    /// PDFs with more pages are rejected.
    public var pdfMaxPages: Int
    /// PDF pages with a longer side, in points, are rejected.
    public var pdfMaxPageSide: Int
    /// Rendering one PDF page may take this long.
    public var pdfPageTimeout: Duration
    /// Images with a shorter side are rejected as unreadable.
    public var minSide: Int
    /// Pages with a longer long side are shrunk to it before OCR.
    public var targetLongSide: Int
    /// Pages with a shorter long side are enlarged to it before OCR; sizes in between are read as they are.
    public var minLongSide: Int
    /// Long side cap of the JPEG kept for the LLM (never enlarged).
    public var compressLongSide: Int
    /// JPEG quality of that copy.
    public var jpegQuality: Int
    /// Keep that copy in color when the source has color.
    public var llmColor: Bool
    /// Tesseract language(s), e.g. `eng`.
    public var language: String
    /// Folder of the `.traineddata` files.
    public var tessdata: String
    /// Tesseract page segmentation mode.
    public var pageSegmentation: Int
    /// Page segmentation mode of a second pass run when the first finds no date; 0 = never.
    public var secondPassSegmentation: Int
    /// The second pass re-reads the first pass's lines with a digit and a lower mean word confidence (0–100).
    public var secondPassConfidence: Double
    /// Page segmentation mode of the header pass (the top of a page enlarged for OCR re-read for the merchant); 0 = never.
    public var headerSegmentation: Int
    /// How much of the page, from the top, the header pass reads (0–1).
    public var headerShare: Double
    /// Per-image OCR deadline (all passes), enforced inside Tesseract.
    public var timeout: Duration
    /// Tesseract variables set once when an engine starts. By default `tessedit_do_invert=0`: Tesseract 5 otherwise
    /// re-reads every low-confidence word as white-on-black; on the dev fixtures turning that off cut p95 OCR time
    /// by ~25% with the same text quality (`pipeline ocr-bench --tesseract-variable tessedit_do_invert=1`).
    public var tesseractVariables = ["tessedit_do_invert": "0"]

    /// The long side Tesseract reads for a page whose long side is `longSide`.
    public func ocrLongSide(for longSide: Int) -> Int {
        min(max(longSide, min(minLongSide, targetLongSide)), targetLongSide)
    }

    /// The values a configuration that names none of the settings gives (`PipelineConfiguration` takes its defaults
    /// from here).
    public static let defaults = ImageProcessingOptions(
        maxPixels: 40_000_000, pdfLibrary: "/usr/local/lib/receipt-pipeline/libpdfium.so", pdfMaxPages: 50,
        pdfMaxPageSide: 14_400, pdfPageTimeout: .seconds(10), minSide: 100, targetLongSide: 1600, minLongSide: 1200,
        compressLongSide: 1600, jpegQuality: 80, llmColor: true, language: "eng",
        tessdata: "/usr/share/tesseract-ocr/5/tessdata", pageSegmentation: 6, secondPassSegmentation: 4,
        secondPassConfidence: 70, headerSegmentation: 4, headerShare: 0.35, timeout: .seconds(20))

    public init(
        maxPixels: Int, pdfLibrary: String, pdfMaxPages: Int, pdfMaxPageSide: Int, pdfPageTimeout: Duration,
        minSide: Int, targetLongSide: Int, minLongSide: Int, compressLongSide: Int, jpegQuality: Int, llmColor: Bool,
        language: String, tessdata: String, pageSegmentation: Int, secondPassSegmentation: Int,
        secondPassConfidence: Double, headerSegmentation: Int, headerShare: Double, timeout: Duration
    ) {
        self.maxPixels = maxPixels
        self.pdfLibrary = pdfLibrary
        self.pdfMaxPages = pdfMaxPages
        self.pdfMaxPageSide = pdfMaxPageSide
        self.pdfPageTimeout = pdfPageTimeout
        self.minSide = minSide
        self.targetLongSide = targetLongSide
        self.minLongSide = minLongSide
        self.compressLongSide = compressLongSide
        self.jpegQuality = jpegQuality
        self.llmColor = llmColor
        self.language = language
        self.tessdata = tessdata
        self.pageSegmentation = pageSegmentation
        self.secondPassSegmentation = secondPassSegmentation
        self.secondPassConfidence = secondPassConfidence
        self.headerSegmentation = headerSegmentation
        self.headerShare = headerShare
        self.timeout = timeout
    }
}
