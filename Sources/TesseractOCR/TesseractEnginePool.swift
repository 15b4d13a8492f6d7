import Foundation
import PipelineCore
import ReceiptImage

/// A fixed set of engines, one per OCR slot, lent out one job at a time.
///
/// With as many concurrent jobs as engines nobody ever waits; extra callers wait in arrival order.
public actor TesseractEnginePool: OCREngine {
    private let engines: [TesseractEngine]
    private var idle: [TesseractEngine]
    private var waiters: [CheckedContinuation<TesseractEngine, Never>] = []

    private init(engines: [TesseractEngine]) {
        self.engines = engines
        self.idle = engines
    }

    /// Starts `count` engines (each on its own thread, language data loaded once each).
    /// - Throws: `ImageError.engineUnavailable` when Tesseract cannot start.
    public static func make(count: Int, options: ImageProcessingOptions) async throws(ImageError)
        -> TesseractEnginePool
    {
        var engines: [TesseractEngine] = []
        for index in 1...max(count, 1) {
            do {
                engines.append(try await TesseractEngine.make(options: options, name: "ocr-\(index)"))
            } catch {
                for engine in engines { await engine.shutdown() }
                throw error
            }
        }
        return TesseractEnginePool(engines: engines)
    }

    public nonisolated var readsWith: OCREngineChoice { .tesseract }

    /// How many engines the pool holds.
    public var count: Int { engines.count }

    /// Runs `body` with an engine of its own, returning the engine to the pool afterwards.
    public func withEngine<T: Sendable>(_ body: @Sendable (TesseractEngine) async throws -> T) async throws -> T {
        let engine = await acquire()
        defer { release(engine) }
        return try await body(engine)
    }

    /// Processes one image on the next free engine (see `TesseractEngine.process`).
    public func process(_ bytes: Data, file: String) async throws -> ProcessedImage {
        try await withEngine { try await $0.process(bytes, file: file) }
    }

    /// The image stages around a page read before, on the next free engine (see `TesseractEngine.decode`).
    public func decode(_ bytes: Data, file: String, page: OCRPage) async throws -> ProcessedImage {
        try await withEngine { try await $0.decode(bytes, file: file, page: page) }
    }

    /// Shuts every engine down; call it once no job uses the pool any more.
    public func shutdown() async {
        for engine in engines { await engine.shutdown() }
    }

    private func acquire() async -> TesseractEngine {
        if let engine = idle.popLast() { return engine }
        return await withCheckedContinuation { waiters.append($0) }
    }

    private func release(_ engine: TesseractEngine) {
        if waiters.isEmpty {
            idle.append(engine)
        } else {
            waiters.removeFirst().resume(returning: engine)
        }
    }
}
