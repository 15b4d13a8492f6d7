import Foundation
import PipelineCore
import PostgresStore
import TestSupport

/// A throwaway database per test on the PostgreSQL that `scripts/test` starts on loopback.
///
/// `PIPELINE_TEST_DATABASE_URL` names an admin connection (default: `postgres://postgres@127.0.0.1:5432/postgres`);
/// each test gets its own freshly created database, dropped afterwards, so tests run in parallel. A migrated one is
/// a copy (`CREATE DATABASE … TEMPLATE`) of a database the `Migrator` migrated once for these migration files:
/// copying takes a tenth of the time migrating takes, and `MigratorTests` migrate empty databases themselves.
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
        try await withNewDatabase(copying: nil, body)
    }

    /// Creates a database with every migration applied, runs `body` with a connection and the URL, drops it.
    public static func withMigratedDatabase<T>(
        _ body: (PostgresConnection, String) async throws -> T
    ) async throws -> T {
        try await withNewDatabase(copying: try await migratedTemplate.value) { url in
            let connection = try await PostgresConnection.connect(to: PostgresTarget(url), label: "test")
            do {
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

    /// Creates a database (empty, or a copy of `template`), runs `body` with its URL, and drops it.
    private static func withNewDatabase<T>(copying template: String?, _ body: (String) async throws -> T)
        async throws -> T
    {
        let name = uniqueName("test")
        let admin = try await PostgresConnection.connect(to: PostgresTarget(adminURL), label: "test-admin")
        try await admin.execute(script: "CREATE DATABASE \(name)" + (template.map { " TEMPLATE \($0)" } ?? ""))
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

    /// The migrated database the test databases are copied from, made once per test process (`migratedTemplate`).
    private static let migratedTemplate = Task { try await makeMigratedTemplate() }

    /// Finds or makes the template for the current migration files: `test_template_<hash of their names and text>`.
    /// It is migrated under a name of its own and renamed when done, so no one copies a half-migrated template; a
    /// second test process doing the same at once keeps the first one's. The throwaway server of `scripts/test`
    /// removes it with everything else; on a server kept between runs it is reused until the migrations change.
    private static func makeMigratedTemplate() async throws -> String {
        let migrator = Migrator(directory: migrations)
        let name = "test_template_" + String(contentHash(try migrator.migrations()), radix: 16)
        let admin = try await PostgresConnection.connect(to: PostgresTarget(adminURL), label: "test-admin")
        do {
            try await makeTemplate(name, migrator, admin)
            await admin.close()
            return name
        } catch {
            await admin.close()
            throw error
        }
    }

    private static func makeTemplate(_ name: String, _ migrator: Migrator, _ admin: PostgresConnection) async throws {
        func exists() async throws -> Bool {
            try await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]).count == 1
        }
        if try await exists() { return }
        let building = uniqueName(name)
        try await admin.execute(script: "CREATE DATABASE \(building)")
        do {
            let connection = try await PostgresConnection.connect(
                to: PostgresTarget(databaseURL(named: building)), label: "test-template")
            do {
                _ = try await migrator.migrate(connection)
                await connection.close()
            } catch {
                await connection.close()
                throw error
            }
            try await admin.execute(script: "ALTER DATABASE \(building) RENAME TO \(name)")
        } catch {
            try? await admin.execute(script: "DROP DATABASE IF EXISTS \(building) WITH (FORCE)")
            // Another test process finished the same template first (the rename failed): copy that one.
            guard try await exists() else { throw error }
        }
    }

    /// FNV-1a over the migrations' names and text: a new name for the template whenever a file changes.
    private static func contentHash(_ migrations: [Migration]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for migration in migrations {
            for byte in Array(migration.name.utf8) + [0] + Array(migration.sql.utf8) + [0] {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
        }
        return hash
    }

    /// `prefix_` and 16 random lowercase hex digits: a name no other test or run uses.
    private static func uniqueName(_ prefix: String) -> String {
        prefix + "_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
    }

    private static func drop(_ name: String, _ admin: PostgresConnection) async throws {
        try await admin.execute(script: "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        await admin.close()
    }
}
