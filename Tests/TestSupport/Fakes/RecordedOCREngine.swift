import Foundation
import PipelineCore
import ReceiptBench

/// The `OCREngine` port's fake: answers each image with what an engine recorded for it, in no time.
///
/// A reading is a page (the shipped ones were recorded by Tesseract with `pipeline bench --ocr-cache`, and are read
/// back in that cache's format from `RecordedPages/`) or the `ImageError` an engine throws for that image. Images are
/// known by their bytes, as a real engine knows them; an image nothing was recorded for fails the read, naming it.
/// Each read is logged, so a test can tell whether the pipeline ran the image stages at all.
public struct RecordedOCREngine: OCREngine {
    /// What the engine answers for one image.
    public enum Reading: Sendable {
        case page(OCRPage)
        case failure(ImageError)
    }

    /// The files read, in order (the names the pipeline passed).
    public actor ReadLog {
        public private(set) var files: [String] = []

        func append(_ file: String) { files.append(file) }
    }

    /// A read of an image nothing was recorded for: a mistake in the test, not an engine failure.
    public struct Unrecorded: Error, CustomStringConvertible {
        public let file: String
        public var description: String {
            "\(file): no OCR reading was recorded for these image bytes; give RecordedOCREngine one"
        }
    }

    private let readings: [Data: Reading]
    private let clock: PipelineClock
    public let log = ReadLog()
    /// The engine the fake answers as: its pages say they were read by it.
    public let readsWith: OCREngineChoice

    /// - Parameters:
    ///   - readings: what to answer, by image bytes.
    ///   - readsWith: the engine it answers as.
    ///   - clock: stamps the image stages' timings.
    public init(_ readings: [Data: Reading], readsWith: OCREngineChoice, clock: PipelineClock = .system) {
        self.readings = readings
        self.readsWith = readsWith
        self.clock = clock
    }

    /// The recorded pages of shipped receipts (`TestEnvironment.receipt(name)`), by their image bytes, answered as
    /// `readsWith`'s pages.
    public static func shipped(_ names: [String], readsWith: OCREngineChoice, clock: PipelineClock = .system) throws
        -> RecordedOCREngine
    {
        var readings: [Data: Reading] = [:]
        for name in names {
            readings[try Data(contentsOf: TestEnvironment.receipt(name))] = .page(try recordedPage(name))
        }
        return RecordedOCREngine(readings, readsWith: readsWith, clock: clock)
    }

    /// The page Tesseract read from shipped receipt `name`, as `pipeline bench --ocr-cache` stored it.
    public static func recordedPage(_ name: String) throws -> OCRPage {
        try OCRPageCache(directory: recordedPagesFolder, fixtureFolder: TestEnvironment.receiptsFolder)
            .page(for: TestEnvironment.receipt(name))
    }

    /// The shipped receipts with a recorded page.
    public static let recordedReceipts = ["sroie_006.jpg", "sroie_030.jpg", "sroie_035.jpg"]

    private static var recordedPagesFolder: URL {
        Bundle.module.resourceURL!.appendingPathComponent("RecordedPages")
    }

    /// The recorded reading of `bytes`, with the four image stages timed as an engine times them (taking no time).
    /// The model's copy of the image is the original bytes.
    public func process(_ bytes: Data, file: String) async throws -> ProcessedImage {
        await log.append(file)
        switch readings[bytes] {
        case nil:
            throw Unrecorded(file: file)
        case .failure(let error):
            throw error
        case .page(let page):
            return try processed(bytes, file: file, page: page, stages: [.decode, .normalize, .ocr, .compress])
        }
    }

    /// `page` with the image stages but OCR timed (taking no time); not a read, so not in `log`.
    public func decode(_ bytes: Data, file: String, page: OCRPage) async throws -> ProcessedImage {
        try processed(bytes, file: file, page: page, stages: [.decode, .normalize, .compress])
    }

    private func processed(_ bytes: Data, file: String, page: OCRPage, stages: [Stage]) throws -> ProcessedImage {
        guard case .supported(let format) = detectImageFormat(leadingBytes: bytes.prefix(imageSignatureLength)) else {
            throw ImageError.unrecognizedFormat(file: file, leadingBytes: bytes)
        }
        var timings = ImageStageTimings()
        for stage in stages { timings.record(stage, startedAt: clock.now(), duration: .zero) }
        return ProcessedImage(
            format: format, originalWidth: page.width, originalHeight: page.height, page: page,
            compressedJPEG: bytes, originalBytes: bytes.count, timings: timings, readBy: readsWith)
    }
}
