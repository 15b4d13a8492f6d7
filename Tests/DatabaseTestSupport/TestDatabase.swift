import Foundation
import PipelineCore
import PostgresStore
import TestSupport

/// A throwaway database per test on the PostgreSQL that `scripts/test` starts on loopback.
///
/// `PIPELINE_TEST_DATABASE_URL` names an admin connection (default: `postgres://postgres@127.0.0.1:5432/postgres`);
/// each test gets its own freshly created and migrated database, dropped afterwards, so tests run in parallel.
public enum TestDatabase {
    /// The admin URL of the test server.
    public static var adminURL: String {
        ProcessInfo.processInfo.environment["PIPELINE_TEST_DATABASE_URL"]
            ?? "postgres://postgres@127.0.0.1:5432/postgres"
    }

    /// The repository's migrations folder.
    public static var migrations: URL { TestEnvironment.repositoryRoot.appendingPathComponent("migrations") }

    /// Creates an empty database, runs `body` with its URL, and drops it.
    public static func withEmptyDatabase<T>(_ body: (String) async throws -> T) async throws -> T {
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
        let admin = try await PostgresConnection.connect(to: PostgresTarget(adminURL), label: "test-admin")
        try await admin.execute(script: "CREATE DATABASE \(name)")
        let url = databaseURL(named: name)
        do {
            let value = try await body(url)
            try await drop(name, admin)
            return value
        } catch {
            try? await drop(name, admin)
            throw error
        }
    }

    /// Creates a database with every migration applied, runs `body` with a connection and the URL, drops it.
    public static func withMigratedDatabase<T>(
        _ body: (PostgresConnection, String) async throws -> T
    ) async throws -> T {
        try await withEmptyDatabase { url in
            let connection = try await PostgresConnection.connect(to: PostgresTarget(url), label: "test")
            do {
                _ = try await Migrator(directory: migrations).migrate(connection)
                let value = try await body(connection, url)
                await connection.close()
                return value
            } catch {
                await connection.close()
                throw error
            }
        }
    }

    /// The admin URL with its database name replaced.
    public static func databaseURL(named name: String) -> String {
        guard var components = URLComponents(string: adminURL) else { return adminURL }
        components.path = "/" + name
        return components.string ?? adminURL
    }

    private static func drop(_ name: String, _ admin: PostgresConnection) async throws {
        try await admin.execute(script: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        await admin.close()
    }
}
