import Foundation

/// The image stages of one receipt — decode, normalize, OCR, compress — as one port, so that any engine
/// (Tesseract, PP-OCR, or a cache of pages for the bench) plugs into the pipeline.
///
/// Implementations time each stage as it runs (`ProcessedImage.timings`) and throw `ImageError` for bad images.
public protocol OCREngine: Sendable {
    /// The engine this stage reads with: its pages say so (`ProcessedImage.readBy`), and a page an earlier attempt
    /// kept stands in for reading again only when this engine made it.
    var readsWith: OCREngineChoice { get }

    /// Reads one image.
    /// - Parameters:
    ///   - bytes: the image file.
    ///   - file: the name the operator knows it by (file name or receipt id), used in errors.
    /// - Throws: `ImageError`, or `CancellationError` when the task is cancelled mid-OCR.
    func process(_ bytes: Data, file: String) async throws -> ProcessedImage

    /// The image stages around a page read before (`KeptPage`): decode, normalize and compress as `process` does,
    /// no OCR; the result's page is `page`. For a PDF, whose page layout (`ProcessedImage.pageStarts`), review copy
    /// and fingerprint only its file gives.
    /// - Throws: `ImageError`, or `CancellationError` when the task is cancelled.
    func decode(_ bytes: Data, file: String, page: OCRPage) async throws -> ProcessedImage
}

/// Where stored receipt images come from (the `receipts` table for the worker and `pipeline reprocess`).
public protocol ReceiptSource: Sendable {
    /// The stored receipt, or nil when it is no longer stored.
    func receipt(_ id: Int64) async throws -> StoredReceipt?
}

/// The wall clock stage timings are stamped with; durations come from a monotonic clock.
public struct PipelineClock: Sendable {
    /// The current wall-clock time.
    public var now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date) {
        self.now = now
    }

    /// The system clock.
    public static var system: PipelineClock { PipelineClock(now: { Date() }) }
}
