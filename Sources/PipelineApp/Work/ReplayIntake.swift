import Foundation
import PipelineCore
import PipelineRuntime
import PostgresStore
import ReceiptBench
import ReceiptIntake
import ReceiptReading

/// The database side of `pipeline-bench replay` (`ReplayRunner`): a fixture is stored as `pipeline ingest` stores
/// it, then worked as `pipeline work --drain` works (`WorkerAssembly`, one slot), its OCR pages read from the
/// bench's cache when they are there.
package struct ReplayIntake: Sendable {
    let context: CommandContext
    let store: PostgresIntakeStore
    let ocrCache: OCRPageCache?
    /// The engine for pages the cache lacks; nil when it holds them all.
    let engine: ReceiptImageReader?
    /// Whether the worker reads what earlier corrections taught (false: the replay without learning).
    package var learns = true

    /// Checks the database is empty and starts an OCR engine unless `ocrCache` holds every fixture's page.
    /// - Throws: `BenchError` when the database already holds receipts (the replay's figures need a fresh one).
    package static func make(
        context: CommandContext, store: PostgresIntakeStore, ocrCache: OCRPageCache?, fixtures: [BenchFixture]
    ) async throws -> ReplayIntake {
        let stored = try await store.receiptCount()
        guard stored == 0 else {
            throw BenchError(
                message:
                    "the replay database already holds \(stored) receipt(s); replay into an empty database (unset "
                    + "DATABASE_URL for a throwaway embedded one)")
        }
        let cached = ocrCache.map { cache in fixtures.allSatisfy { cache.contains($0.image) } } ?? false
        let engine = cached ? nil : try await ReceiptImageReader.make(configuration: context.configuration, count: 1)
        return ReplayIntake(context: context, store: store, ocrCache: ocrCache, engine: engine)
    }

    /// Ingests `fixture` and works the queue until it is empty. - Returns: its receipt id, and why its job went dead
    /// when it did (a damaged image: the replay counts it as a touch and goes on).
    package func process(_ fixture: BenchFixture) async throws -> ReplayProcessed {
        let receiptID = try await ingest(fixture)
        let ocr: any OCREngine =
            if let ocrCache {
                CachedOCREngine(
                    cache: ocrCache,
                    images: [
                        StoredReceipt.displayName(id: receiptID, originalName: fixture.image.lastPathComponent):
                            fixture.image
                    ],
                    engine: engine, readsWith: context.configuration.ocr.engine)
            } else if let engine { engine } else { throw BenchError(message: "no OCR engine for the replay") }
        let dead = try await work(reading: ocr).first.map { dead in
            "\(fixture.name): its job went dead: \(dead.failure?.description ?? "no reason recorded")"
        }
        return ReplayProcessed(receiptID: receiptID, deadReason: dead)
    }

    /// Works the queue until it is empty: the jobs a person's review queued (receipts read again from their kept
    /// OCR pages, so no image is read).
    /// - Throws: `BenchError` when one of them went dead.
    package func drain() async throws {
        let ocr: any OCREngine =
            if let ocrCache {
                CachedOCREngine(
                    cache: ocrCache, images: [:], engine: engine, readsWith: context.configuration.ocr.engine)
            } else if let engine { engine } else { throw BenchError(message: "no OCR engine for the replay") }
        if let dead = try await work(reading: ocr).first {
            throw BenchError(
                message: "receipt \(dead.job.receiptID.map(String.init) ?? "?") went dead when read again: "
                    + (dead.failure?.description ?? "no reason recorded"))
        }
    }

    /// Runs the worker (`WorkerAssembly`, one slot) until the queue is empty. - Returns: the jobs that went dead.
    private func work(reading ocr: any OCREngine) async throws -> [WorkerRunSummary.DeadJob] {
        var configuration = context.configuration
        configuration.workers.concurrency = 1
        var assembly = WorkerAssembly(context: context, configuration: configuration, vision: nil, drain: true)
        assembly.handlesSignals = false
        assembly.showsProgress = false
        assembly.ocr = ocr
        assembly.learns = learns
        return try await assembly.run().summary.deadJobs
    }

    /// Stops the OCR engine, if one was started.
    package func shutdown() async {
        await engine?.shutdown()
    }

    /// Stores the fixture's image with its job, as `pipeline ingest` does. - Returns: its receipt id.
    private func ingest(_ fixture: BenchFixture) async throws -> Int64 {
        let scan = FileScanner(settleTime: .zero).scan([RawPath(fixture.image.path)])
        // A fixture is one image or one-page PDF: the page reader has nothing to split and starts no engine.
        let summary = try await Ingester(
            configuration: context.configuration, pages: IngestPageReader(configuration: context.configuration)
        ).ingest(scan, into: store, dryRun: false)
        if let rejected = summary.rejected.first {
            throw BenchError(message: "\(fixture.name): ingest refused it: \(rejected.reason)")
        }
        let digest = sha256Hex(try Data(contentsOf: fixture.image))
        guard let id = try await store.receiptID(sha256: digest) else {
            throw BenchError(message: "\(fixture.name): not stored after ingest (a duplicate of an earlier image?)")
        }
        return id
    }
}
