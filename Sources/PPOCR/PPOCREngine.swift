import BlockingExecution
import CONNXRuntime
import Foundation
import PipelineCore

/// One PP-OCR reader with its own thread and its own detector and recognizer sessions (one per worker slot).
///
/// ONNX Runtime is opened once per process; each engine loads both models once (~0.3 s) and reuses them. All
/// blocking work runs on the engine's `ThreadExecutor`, never on Swift's cooperative pool. Call `shutdown()` when
/// done.
public actor PPOCREngine {
    private let executor: ThreadExecutor
    private let runtime: ONNXRuntime
    private let detector: TextDetector
    private let recognizer: TextRecognizer
    private let timeout: Duration

    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private init(
        executor: ThreadExecutor, runtime: ONNXRuntime, detector: TextDetector, recognizer: TextRecognizer,
        timeout: Duration
    ) {
        self.executor = executor
        self.runtime = runtime
        self.detector = detector
        self.recognizer = recognizer
        self.timeout = timeout
    }

    /// Opens ONNX Runtime (once per process) and loads both models on a new engine thread.
    /// - Throws: `ImageError.engineUnavailable` naming the missing file or the runtime's complaint, with the
    ///   install command.
    public static func make(settings: PPOCRSettings, name: String = "ppocr") async throws(ImageError) -> PPOCREngine {
        if let missing = settings.missingFile() { throw .ppocrUnavailable("\(missing) is missing") }
        let executor = ThreadExecutor(name: name)
        let loaded = await withTaskExecutorPreference(executor) {
            () async -> Result<(ONNXRuntime, TextDetector, TextRecognizer), ONNXRuntimeError> in
            do throws(ONNXRuntimeError) {
                let runtime = try ONNXRuntime.shared(libraryPath: settings.libraryPath)
                let detector = TextDetector(
                    session: try ONNXSession(runtime: runtime, path: settings.detectorPath, threads: settings.threads),
                    longSide: settings.detectorLongSide)
                let recognizerSession = try ONNXSession(
                    runtime: runtime, path: settings.recognizerPath, threads: settings.threads)
                let recognizer = try TextRecognizer(session: recognizerSession)
                return .success((runtime, detector, recognizer))
            } catch {
                return .failure(error)
            }
        }
        switch loaded {
        case .success(let (runtime, detector, recognizer)):
            return PPOCREngine(
                executor: executor, runtime: runtime, detector: detector, recognizer: recognizer,
                timeout: settings.timeout)
        case .failure(let error):
            executor.shutdown()
            throw .ppocrUnavailable(error.description)
        }
    }

    /// Reads a page: text regions, each read, grouped into lines. A page without text gives an empty page.
    /// - Throws: `ImageError.ocrTimedOut` past `ocr.timeout`, `ImageError.ocrFailed` when ONNX Runtime fails,
    ///   `CancellationError` when the task is cancelled (the model run in progress is terminated).
    public func read(_ image: PixelImage, file: String) async throws -> OCRPage {
        try Task.checkCancellation()
        let stop = RunStop(runtime: runtime)
        let deadline = ContinuousClock.now + timeout
        let watchdog = Task.detached {
            try await Task.sleep(until: deadline, clock: .continuous)
            stop.stop()
        }
        defer { watchdog.cancel() }
        do {
            return try await withTaskCancellationHandler {
                try recognize(image, stop: stop)
            } onCancel: {
                stop.stop()
            }
        } catch let error as ONNXRuntimeError {
            try Task.checkCancellation()
            if stop.isStopped { throw ImageError.ocrTimedOut(file: file, deadline: timeout) }
            throw ImageError.ppocrFailed(file: file, detail: error.description)
        }
    }

    private func recognize(_ image: PixelImage, stop: RunStop) throws(ONNXRuntimeError) -> OCRPage {
        // A page's tensors are freed when it is read; without handing their pages back, a long `work` run with
        // 2 slots grew to 660–710 MB (485 MB with it, for ~6% more CPU: docs/ocr-engines.md).
        defer { ort_return_free_memory() }
        let texts = try recognizer.recognize(try detector.detect(image, stop: stop), in: image, stop: stop)
        guard PageOrientation.mayBeTurned(texts) else {
            return PageAssembler.page(texts, width: image.width, height: image.height)
        }
        // Sideways or upside down, perhaps: each other way up is read, and the one reading most upright is kept.
        var best = (quarterTurns: 0, image: image, texts: texts, score: PageOrientation.uprightCharacters(texts))
        for quarterTurns in 1...3 {
            let turned = image.turnedClockwise(quarterTurns: quarterTurns)
            let read = try recognizer.recognize(try detector.detect(turned, stop: stop), in: turned, stop: stop)
            let score = PageOrientation.uprightCharacters(read)
            if score > best.score { best = (quarterTurns, turned, read, score) }
        }
        var page = PageAssembler.page(best.texts, width: best.image.width, height: best.image.height)
        page.quarterTurns = best.quarterTurns
        return page
    }

    /// Runs blocking work (such as decoding the image) on this engine's thread.
    public func perform<T: Sendable>(_ work: @Sendable () throws -> T) throws -> T {
        try work()
    }

    /// Stops the engine's thread. The engine must not be used afterwards.
    public func shutdown() {
        executor.shutdown()
    }
}

extension PPOCREngine {
    /// Starts `count` engines, one per worker slot; stops the ones started when a later one fails.
    /// - Throws: `ImageError.engineUnavailable` as `make` does.
    public static func pool(count: Int, settings: PPOCRSettings) async throws(ImageError) -> SlotPool<PPOCREngine> {
        var engines: [PPOCREngine] = []
        for index in 1...max(count, 1) {
            do {
                engines.append(try await make(settings: settings, name: "ppocr-\(index)"))
            } catch {
                for engine in engines { await engine.shutdown() }
                throw error
            }
        }
        return SlotPool(engines)
    }
}
