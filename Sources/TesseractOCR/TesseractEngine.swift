import BlockingExecution
import CTesseract
import Foundation
import PipelineCore
import ReceiptImage

/// One Tesseract instance with its own thread: decodes, normalizes, recognizes and compresses receipt images.
///
/// Create one per OCR slot with `make(options:name:)` (the language data loads once, ~0.1 s), reuse it for every
/// image, and call `shutdown()` when done. All blocking work (Leptonica and Tesseract) runs on the engine's
/// `ThreadExecutor`, never on Swift's cooperative pool. The process should run with `OMP_THREAD_LIMIT=1`.
public actor TesseractEngine {
    private let executor: ThreadExecutor
    private let options: ImageProcessingOptions
    private let loader: LeptonicaImageLoader
    private var api: OpaquePointer?

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private init(options: ImageProcessingOptions, name: String) {
        self.executor = ThreadExecutor(name: name)
        self.options = options
        self.loader = LeptonicaImageLoader(options: options)
    }

    /// Starts an engine and loads its language data on the engine's own thread.
    /// - Parameters:
    ///   - options: image and OCR settings.
    ///   - name: the thread's name, e.g. `ocr-1`.
    /// - Throws: `ImageError.engineUnavailable` when the language data cannot be loaded.
    public static func make(options: ImageProcessingOptions, name: String = "ocr") async throws(ImageError)
        -> TesseractEngine
    {
        let engine = TesseractEngine(options: options, name: name)
        try await engine.start()
        return engine
    }

    private func start() throws(ImageError) {
        LeptonicaDiagnostics.silence()
        // Tesseract starts without a second language whose model is missing (`eng+deu`, no deu): refuse instead.
        if let missing = Self.missingLanguages(options) { throw .engineUnavailable(detail: missing) }
        guard let api = TessBaseAPICreate() else { throw .engineUnavailable(detail: "TessBaseAPICreate failed") }
        // Before Init: Tesseract reports language-data problems through debug_file.
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        guard TessBaseAPIInit3(api, options.tessdata, options.language) == 0 else {
            TessBaseAPIDelete(api)
            throw .engineUnavailable(detail: "no usable '\(options.language)' language data in \(options.tessdata)")
        }
        _ = TessBaseAPISetVariable(api, "debug_file", "/dev/null")
        for (name, value) in options.tesseractVariables.sorted(by: { $0.key < $1.key }) {
            guard TessBaseAPISetVariable(api, name, value) != 0 else {
                TessBaseAPIEnd(api)
                TessBaseAPIDelete(api)
                throw .engineUnavailable(detail: "unknown Tesseract variable '\(name)'")
            }
        }
        self.api = api
    }

    /// Why `ocr.language` (one language or several joined by `+`, `deu+fra+eng`) cannot load: the languages whose
    /// `.traineddata` is missing from `ocr.tessdata`, and the Debian package of each; nil when every model is there.
    static func missingLanguages(_ options: ImageProcessingOptions) -> String? {
        let missing = options.language.split(separator: "+").map(String.init).filter {
            !FileManager.default.fileExists(atPath: "\(options.tessdata)/\($0).traineddata")
        }
        guard !missing.isEmpty else { return nil }
        return
            "ocr.language '\(options.language)': no \(missing.map { "\($0).traineddata" }.joined(separator: ", ")) in "
            + "\(options.tessdata); install \(missing.map { "tesseract-ocr-\($0)" }.joined(separator: " ")) "
            + "(scripts/install-dependencies installs eng, deu, fra, spa, ita, nld, por and pol) or set ocr.tessdata"
    }

    /// Frees the Tesseract instance and stops the thread. The engine must not be used afterwards.
    public func shutdown() {
        if let api {
            TessBaseAPIEnd(api)
            TessBaseAPIDelete(api)
        }
        api = nil
        executor.shutdown()
    }

    /// Runs the image stages for one receipt: decode, normalize, OCR, compress.
    /// - Parameters:
    ///   - bytes: the image file.
    ///   - file: the name the operator knows it by (file name or receipt id), used in errors.
    /// - Returns: the page, the compressed JPEG for the LLM and per-stage timings.
    /// - Throws: `ImageError` (see `isRetryable`), or `CancellationError` when the task is cancelled mid-OCR.
    public func process(_ bytes: Data, file: String) async throws -> ProcessedImage {
        try await process(bytes, file: file, page: nil)
    }

    /// The image stages around a page read before: decode, normalize and compress as `process` does, no OCR.
    /// - Throws: the same `ImageError`s as `process` for bad images.
    public func decode(_ bytes: Data, file: String, page: OCRPage) async throws -> ProcessedImage {
        try await process(bytes, file: file, page: page)
    }

    /// The image stages, reading the page unless it was read before (`page`).
    private func process(_ bytes: Data, file: String, page readBefore: OCRPage?) async throws -> ProcessedImage {
        let image = try loader.load(bytes, file: file)
        var timings = image.timings

        let page: OCRPage
        if let readBefore {
            page = readBefore
        } else {
            let ocrStartedAt = Date()
            let ocrStart = ContinuousClock.now
            // Small photos, enlarged for OCR, are where logos and large type garble the name; scans read it well.
            let isEnlarged = image.ocrInput.longSide > image.upright.longSide
            page = try await read(image.ocrInput, readingHeader: isEnlarged, file: file)
            timings.record(.ocr, startedAt: ocrStartedAt, duration: ContinuousClock.now - ocrStart)
        }

        let jpeg = try timings.measure(.compress) { () throws(ImageError) in
            try loader.compress(image, bytes: bytes, file: file)
        }
        return ProcessedImage(
            format: image.format, originalWidth: image.originalWidth, originalHeight: image.originalHeight,
            page: page, compressedJPEG: Data(jpeg), originalBytes: bytes.count, timings: timings, readBy: .tesseract,
            fingerprint: image.fingerprint)
    }

    /// The exact gray image `process` hands to Tesseract, as PNG: for benchmarks against other OCR tools.
    /// - Throws: the same `ImageError`s as `process` for bad images.
    public func normalizedPNG(_ bytes: Data, file: String) throws(ImageError) -> Data {
        let image = try loader.load(bytes, file: file)
        guard let png = image.ocrInput.png() else { throw .encodeFailed(file: file) }
        return Data(png)
    }

    /// The first pass; a second one with `secondPassSegmentation` when the first shows no date: it re-reads, each
    /// cut out on its own, the strips around the first pass's uncertain lines with digits (`SecondPassPolicy`); and
    /// and, when `readingHeader`, the header pass, which re-reads the top `headerShare` of the page with
    /// `headerSegmentation` for the merchant. Re-read lines are in page coordinates, and every pass shares one deadline.
    private func read(_ image: PixImage, readingHeader: Bool, file: String) async throws -> OCRPage {
        let deadline = ContinuousClock.now + options.timeout
        var page = try await recognize(image, mode: options.pageSegmentation, until: deadline, file: file)
        if options.secondPassSegmentation != 0, SecondPassPolicy.needsSecondPass(page.text) {
            let strips = SecondPassPolicy.stripsToReread(in: page, belowConfidence: options.secondPassConfidence)
            for strip in strips {
                guard let cutOut = image.cropped(to: strip) else { continue }
                let reread = try await recognize(
                    cutOut, mode: options.secondPassSegmentation, until: deadline, file: file,
                    origin: (strip.left, strip.top))
                page.lines += reread.lines
            }
            let words = page.lines.flatMap(\.words)
            page.meanConfidence = words.isEmpty ? 0 : words.map(\.confidence).reduce(0, +) / Double(words.count)
        }
        let headerHeight = Int((Double(image.height) * options.headerShare).rounded())
        if readingHeader, options.headerSegmentation != 0, headerHeight > 0,
            let header = image.cropped(to: BoundingBox(left: 0, top: 0, width: image.width, height: headerHeight))
        {
            page.headerLines = try await recognize(
                header, mode: options.headerSegmentation, until: deadline, file: file
            ).lines
        }
        return page
    }

    /// Recognizes one page with a deadline and cancellation that reach into Tesseract through its monitor.
    /// - Parameter origin: where `image` lies on the page (for a cut-out strip); the boxes are moved by it.
    private func recognize(
        _ image: PixImage, mode: Int, until deadline: ContinuousClock.Instant, file: String,
        origin: (left: Int, top: Int) = (0, 0)
    ) async throws -> OCRPage {
        try Task.checkCancellation()
        let remaining = deadline - ContinuousClock.now
        guard remaining > .zero else { throw ImageError.ocrTimedOut(file: file, deadline: options.timeout) }
        let flag = CancellationFlag()
        // The recognition itself runs in `recognizeNow`, isolated to the engine: on its thread, never beside
        // `shutdown()`, which therefore cannot end the instance while a (cancelled) recognition still runs on it.
        let result = await withTaskCancellationHandler {
            self.recognizeNow(image, mode: mode, within: remaining, cancelledBy: flag, origin: origin)
        } onCancel: {
            flag.set()
        }
        if flag.isSet { throw CancellationError() }
        switch result {
        case .success(let page):
            return page
        case .shutDown:
            throw ImageError.engineUnavailable(detail: "the engine was shut down")
        case .failed(let status):
            // Tesseract reports a passed deadline and other failures alike: tell them apart by the clock.
            if ContinuousClock.now >= deadline { throw ImageError.ocrTimedOut(file: file, deadline: options.timeout) }
            throw ImageError.ocrFailed(file: file, detail: "TessBaseAPIRecognize returned \(status)")
        }
    }

    private enum Recognition {
        case success(OCRPage)
        case failed(status: Int32)
        case shutDown
    }

    /// One recognition from image to page, without suspending: Tesseract's monitor stops it at `limit` or once
    /// `flag` is set.
    private func recognizeNow(
        _ image: PixImage, mode: Int, within limit: Duration, cancelledBy flag: CancellationFlag,
        origin: (left: Int, top: Int)
    ) -> Recognition {
        guard let api else { return .shutDown }
        TessBaseAPISetPageSegMode(api, TessPageSegMode(UInt32(mode)))
        TessBaseAPISetImage2(api, image.pointer)
        defer { TessBaseAPIClear(api) }
        let monitor = TessMonitorCreate()
        defer { TessMonitorDelete(monitor) }
        TessMonitorSetCancelFunc(monitor) { flagPointer, _ in
            guard let flagPointer else { return false }
            return Unmanaged<CancellationFlag>.fromOpaque(flagPointer).takeUnretainedValue().isSet
        }
        // `flag` is a parameter of this call, so it outlives the recognition that reads it through the monitor.
        TessMonitorSetCancelThis(monitor, Unmanaged.passUnretained(flag).toOpaque())
        TessMonitorSetDeadlineMSecs(monitor, Int32(clamping: max(1, limit.milliseconds)))
        let status = TessBaseAPIRecognize(api, monitor)
        guard status == 0, !flag.isSet else { return .failed(status: status) }
        return .success(
            TesseractPageReader.page(from: api, width: image.width, height: image.height, origin: origin))
    }
}
