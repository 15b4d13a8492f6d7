import PipelineCore
import PostgresStore
import ReviewServer

/// The upload page's way into the pipeline, on the server's connection pool: a burst of uploads waits its turn
/// for a connection, and a database restart costs the uploads made while it was down, never the service.
struct PostgresUploadIntake: UploadIntake {
    let configuration: PipelineConfiguration
    let pages: IngestPageReader
    let store: PostgresIntakeStore

    func ingest(fileName: String, bytes: [UInt8]) async throws -> UploadResult {
        try await Ingester(configuration: configuration, pages: pages)
            .ingestUpload(name: fileName, bytes: bytes, into: store)
    }

    func progress(of receiptIDs: [Int64]) async throws -> [ReceiptProgress] {
        try await store.progress(of: receiptIDs)
    }
}

/// Whether the service can do its work: `/readyz`.
struct ServiceProbes: Sendable {
    let context: CommandContext
    /// The pages' and uploads' session (a connection pool): ready means they can reach the database.
    let session: PostgresSession
    /// Worker slots of this process; 0 means the page alone (no OCR engine to load).
    let slots: Int
    let engines: EngineLoadState

    /// The numbers of `pipeline stats --prometheus`, read afresh.
    func metrics() async throws -> String {
        let configuration = context.configuration
        return try await StatsReport.load(since: nil, configuration: configuration, from: session).prometheus()
    }

    /// Database reachable, every migration applied, OCR engines loaded (when this process has worker slots).
    func readiness() async -> [ReadinessCheck] {
        var checks: [ReadinessCheck] = []
        do {
            let pending = try await session.pendingMigrations()
            checks.append(ReadinessCheck(name: "database", isReady: true, detail: "reachable"))
            checks.append(
                pending.isEmpty
                    ? ReadinessCheck(name: "migrations", isReady: true, detail: "all applied")
                    : ReadinessCheck(
                        name: "migrations", isReady: false,
                        detail: "not applied: \(pending.joined(separator: ", ")); run pipeline migrate"))
        } catch {
            checks.append(
                ReadinessCheck(
                    name: "database", isReady: false,
                    detail: "\(error); check DATABASE_URL and that PostgreSQL is running"))
        }
        if slots == 0 {
            checks.append(ReadinessCheck(name: "ocr", isReady: true, detail: "no worker slots here (--workers 0)"))
        } else if await engines.isLoaded {
            checks.append(
                ReadinessCheck(
                    name: "ocr", isReady: true,
                    detail: "\(slots) \(context.configuration.ocr.engine.rawValue) engine slot(s) loaded"))
        } else {
            checks.append(ReadinessCheck(name: "ocr", isReady: false, detail: "engines still loading"))
        }
        return checks
    }
}

/// Set once the worker slots' OCR engines are up.
actor EngineLoadState {
    private(set) var isLoaded = false

    func markLoaded() { isLoaded = true }
}
