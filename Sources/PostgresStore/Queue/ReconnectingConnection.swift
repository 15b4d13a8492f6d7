import Logging
import PipelineCore
import Synchronization

/// A connection opened on first use and dropped on a transient failure, so the next use reconnects.
///
/// Workers keep running across a database restart: the failing call throws, the caller backs off and retries.
/// Not an actor: a call goes straight from the caller to the connection's thread, with no extra hop.
final class ReconnectingConnection: Sendable {
    private struct State {
        var connection: PostgresConnection?
        var opening: Task<PostgresConnection, any Error>?
    }

    private let target: PostgresTarget
    private let label: String
    private let logger: Logger
    private let state = Mutex(State())

    init(target: PostgresTarget, label: String, logger: Logger) {
        self.target = target
        self.label = label
        self.logger = logger
    }

    /// Runs `body` with an open connection; a transient failure closes it before rethrowing.
    func use<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let current = try await open()
        do {
            return try await body(current)
        } catch let error as PostgresError where error.isTransient {
            let dropped = state.withLock { state in
                guard state.connection === current else { return false }
                state.connection = nil
                return true
            }
            if dropped {
                await current.close()
                logger.warning("database connection '\(label)' lost, will reconnect: \(error)")
            }
            throw error
        }
    }

    /// Closes the connection (a later use reopens it).
    func close() async {
        let current = state.withLock { state in
            defer { state.connection = nil }
            return state.connection
        }
        await current?.close()
    }

    private enum Opened {
        case ready(PostgresConnection)
        case opening(Task<PostgresConnection, any Error>)
    }

    private func open() async throws -> PostgresConnection {
        let opened = state.withLock { state -> Opened in
            if let connection = state.connection { return .ready(connection) }
            if let opening = state.opening { return .opening(opening) }
            let opening = Task { [target, label, logger] in
                try await PostgresConnection.connect(to: target, label: label, logger: logger)
            }
            state.opening = opening
            return .opening(opening)
        }
        switch opened {
        case .ready(let connection):
            return connection
        case .opening(let opening):
            do {
                let connection = try await opening.value
                state.withLock { state in
                    if state.opening == opening {
                        state.connection = connection
                        state.opening = nil
                    }
                }
                return connection
            } catch {
                state.withLock { state in
                    if state.opening == opening { state.opening = nil }
                }
                throw error
            }
        }
    }
}
