import Logging
import PipelineCore

/// A connection opened on first use and dropped on a transient failure, so the next use reconnects.
///
/// Workers keep running across a database restart: the failing call throws, the caller backs off and retries.
actor ReconnectingConnection {
    private let target: PostgresTarget
    private let label: String
    private let logger: Logger
    private var connection: PostgresConnection?
    private var opening: Task<PostgresConnection, any Error>?

    init(target: PostgresTarget, label: String, logger: Logger) {
        self.target = target
        self.label = label
        self.logger = logger
    }

    /// Runs `body` with an open connection; a transient failure closes it before rethrowing.
    func use<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let current = try await open()
        do {
            return try await body(current)
        } catch let error as PostgresError where error.isTransient {
            if connection === current {
                connection = nil
                await current.close()
                logger.warning("database connection '\(label)' lost, will reconnect: \(error)")
            }
            throw error
        }
    }

    /// Closes the connection (a later use reopens it).
    func close() async {
        let current = connection
        connection = nil
        await current?.close()
    }

    private func open() async throws -> PostgresConnection {
        if let connection { return connection }
        if let opening { return try await opening.value }
        let task = Task { [target, label, logger] in
            try await PostgresConnection.connect(to: target, label: label, logger: logger)
        }
        opening = task
        defer { opening = nil }
        let opened = try await task.value
        connection = opened
        return opened
    }
}
