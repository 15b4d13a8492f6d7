import Foundation

/// The image stages of one receipt as they ran: decode, normalize, OCR, compress, each stamped when it started.
public struct ImageStageTimings: Sendable, Equatable {
    /// In the order they ran.
    public private(set) var stages: [StageTiming] = []

    public init() {}

    /// Runs `body` as `stage`, recording when it started and how long it took.
    public mutating func measure<T, Failure: Error>(
        _ stage: Stage, _ body: () throws(Failure) -> T
    ) throws(Failure) -> T {
        let startedAt = Date()
        let start = ContinuousClock.now
        let value = try body()
        stages.append(StageTiming(stage: stage, startedAt: startedAt, duration: ContinuousClock.now - start))
        return value
    }

    /// Records a stage measured by the caller.
    public mutating func record(_ stage: Stage, startedAt: Date, duration: Duration) {
        stages.append(StageTiming(stage: stage, startedAt: startedAt, duration: duration))
    }

    /// How long `stage` took (zero when it did not run).
    public func duration(of stage: Stage) -> Duration {
        stages.filter { $0.stage == stage }.reduce(.zero) { $0 + $1.duration }
    }

    /// The image stages together.
    public var total: Duration { stages.reduce(.zero) { $0 + $1.duration } }
}

/// Where a page's text came from.
public enum PageSource: String, Sendable, CaseIterable, Equatable {
    /// Read by the OCR engine from the image (a photo, a scan, a scanned PDF).
    case ocr
    /// Read from a born-digital PDF's text layer: exact text, no OCR.
    case pdfText = "pdf-text"
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
    /// The engine that read `page` (for a PDF's text layer, the engine its pages would have been read with): the
    /// trust models of its reader weigh the page (`PageReader`), and the page is kept as its (`KeptPage.madeBy`).
    public var readBy: OCREngineChoice
    /// Where `page`'s text came from.
    public var pageSource: PageSource
    /// The decoded page's perceptual hash, for finding a re-scan or second photo of a receipt; nil when the page was
    /// not decoded here (a kept or cached page).
    public var fingerprint: PageFingerprint?
    /// Where each page read into `page` starts, as a fraction of its height from the top, in order (a PDF's pages
    /// lie one below the other); `[0]` for an image.
    public var pageStarts: [Double] = [0]
    /// The pages read into `page`; 1 for an image.
    public var pageCount: Int { pageStarts.count }

    public init(
        format: ImageFormat, originalWidth: Int, originalHeight: Int, page: OCRPage, compressedJPEG: Data,
        originalBytes: Int, timings: ImageStageTimings, readBy: OCREngineChoice, pageSource: PageSource = .ocr,
        fingerprint: PageFingerprint? = nil
    ) {
        self.readBy = readBy
        self.pageSource = pageSource
        self.format = format
        self.originalWidth = originalWidth
        self.originalHeight = originalHeight
        self.page = page
        self.compressedJPEG = compressedJPEG
        self.originalBytes = originalBytes
        self.timings = timings
        self.fingerprint = fingerprint
    }
}
