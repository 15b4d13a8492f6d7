import PipelineCore

/// What `pipeline serve` adds to the review page: an upload page, Prometheus metrics and health probes.
///
/// The page reaches the ingest code, the statistics and the probes through these ports only, so the ReviewServer
/// module still depends on no adapter.
public struct ServiceEndpoints: Sendable {
    /// Stores uploaded files through the same checks, limits and dedupe as `pipeline ingest`.
    public var uploads: any UploadIntake
    /// The Prometheus text exposition (the numbers of `pipeline stats --prometheus`).
    public var metrics: @Sendable () async throws -> String
    /// The readiness checks: database reachable, migrations applied, OCR engine loaded.
    public var readiness: @Sendable () async -> [ReadinessCheck]
    /// Largest upload accepted (`ingest.maxBytes`); a larger body is answered 413.
    public var maxUploadBytes: Int

    public init(
        uploads: any UploadIntake, metrics: @escaping @Sendable () async throws -> String,
        readiness: @escaping @Sendable () async -> [ReadinessCheck], maxUploadBytes: Int
    ) {
        self.uploads = uploads
        self.metrics = metrics
        self.readiness = readiness
        self.maxUploadBytes = maxUploadBytes
    }
}

/// One readiness check, named for `/readyz`.
public struct ReadinessCheck: Sendable, Equatable {
    public let name: String
    public let isReady: Bool
    /// What was found, or what is wrong and what to do.
    public let detail: String

    public init(name: String, isReady: Bool, detail: String) {
        self.name = name
        self.isReady = isReady
        self.detail = detail
    }
}
