import Logging

/// The pipeline's database as the app holds it: where it is and which migrations it takes.
///
/// Commands run their statements in a session (`session(label:_:)`: one connection, opened for the body and closed
/// after it); a server's pages and uploads share a pool (`pooledSession(label:size:_:)`). Connections and rows stay
/// inside `PostgresStore`: a session hands out stores and typed values only.
public struct PostgresDatabase: Sendable {
    public let target: PostgresTarget
    public let migrator: Migrator
    private let logger: Logger

    public init(target: PostgresTarget, migrator: Migrator, logger: Logger) {
        self.target = target
        self.migrator = migrator
        self.logger = logger
    }

    /// Opens a connection, runs `body` with a session over it, and closes the connection (also when `body` throws).
    public func session<T>(label: String, _ body: (PostgresSession) async throws -> T) async throws -> T {
        let connection = try await PostgresConnection.connect(to: target, label: label, logger: logger)
        do {
            let value = try await body(PostgresSession(on: connection, of: self))
            await connection.close()
            return value
        } catch {
            await connection.close()
            throw error
        }
    }

    /// Runs `body` with a session over a pool of at most `size` connections, opened as calls need them, and closes
    /// them after it. The pool reconnects after a database restart (`PostgresConnectionPool`), so a server's pages
    /// recover without the server restarting.
    public func pooledSession<T>(label: String, size: Int, _ body: (PostgresSession) async throws -> T)
        async throws -> T
    {
        let pool = PostgresConnectionPool(target: target, size: size, label: label, logger: logger)
        do {
            let value = try await body(PostgresSession(on: pool, of: self))
            await pool.close()
            return value
        } catch {
            await pool.close()
            throw error
        }
    }
}
