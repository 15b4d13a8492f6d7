import Foundation

/// One `NNNN_name.sql` file.
public struct Migration: Sendable, Equatable {
    /// The file name, e.g. `0001_schema.sql`; also the key recorded in `schema_migrations`.
    public let name: String
    public let sql: String
}

/// A migration that could not be read or applied; the database is left as it was before that file.
public struct MigrationError: Error, Sendable, CustomStringConvertible {
    public let file: String
    public let reason: String
    public let description: String

    init(file: String, reason: String) {
        self.file = file
        self.reason = reason
        self.description = "migration \(file) failed: \(reason); nothing from this file was applied"
    }

    /// The migrations folder itself could not be read: nothing was applied.
    init(folder: String, reason: String) {
        self.file = folder
        self.reason = reason
        self.description =
            "cannot read the migrations folder \(folder) (\(reason)); set database.migrations "
            + "(or PIPELINE_DATABASE_MIGRATIONS) to the folder holding the NNNN_name.sql files"
    }
}

/// Applies `migrations/*.sql` in name order, each once, each in its own transaction, recording them in
/// `schema_migrations`. A transaction-scoped advisory lock keeps concurrent migrators (several workers starting
/// at once) from applying the same file twice.
///
/// The files are compiled into the binary (`Migrator.embedded`), so it runs from any folder; a migrator over a
/// folder reads them from there instead.
public struct Migrator: Sendable {
    /// The folder the files are read from; nil for the ones compiled into the binary.
    public let directory: URL?

    /// Reads the migrations from `directory`.
    public init(directory: URL) { self.directory = directory }

    private init() { self.directory = nil }

    /// The migrations compiled into this binary from the checkout's `migrations/` folder.
    public static let embedded = Migrator()

    /// The migrations, sorted by name.
    /// - Throws: `MigrationError` when the folder cannot be read or a name does not start with four digits.
    public func migrations() throws -> [Migration] {
        guard let directory else { return Migration.embedded }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw MigrationError(folder: directory.path, reason: error.localizedDescription)
        }
        return try names.filter { $0.hasSuffix(".sql") }.sorted().map { name in
            guard name.prefix(4).allSatisfy(\.isNumber), name.dropFirst(4).first == "_" else {
                throw MigrationError(file: name, reason: "the name must look like 0001_description.sql")
            }
            let url = directory.appendingPathComponent(name)
            guard let sql = try? String(contentsOf: url, encoding: .utf8) else {
                throw MigrationError(file: name, reason: "cannot read it as UTF-8 text")
            }
            return Migration(name: name, sql: sql)
        }
    }

    /// The names of the migrations recorded in `schema_migrations` (none before the first migration).
    public static func applied(in connection: PostgresConnection) async throws -> Set<String> {
        let exists = try await connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS present")
        guard try exists.first?.bool("present") == true else { return [] }
        let rows = try await connection.query("SELECT name FROM schema_migrations")
        return Set(try rows.compactMap { try $0.string("name") })
    }

    /// Applies every migration not yet recorded.
    /// - Returns: the names applied by this call, in order (empty when the schema was current).
    public func migrate(_ connection: PostgresConnection) async throws -> [String] {
        let all = try migrations()
        // The lock comes first: two migrators creating `schema_migrations` at once collide on its catalog rows
        // (23505) even with IF NOT EXISTS.
        try await connection.transaction { connection in
            try connection.query(Self.lock)
            try connection.execute(
                script: """
                    CREATE TABLE IF NOT EXISTS schema_migrations (
                        name text PRIMARY KEY,
                        applied_at timestamptz NOT NULL DEFAULT now()
                    )
                    """)
        }
        var applied: [String] = []
        for migration in all {
            let didApply = try await connection.transaction { connection in
                try connection.query(Self.lock)
                let done = try connection.query("SELECT 1 FROM schema_migrations WHERE name = $1", [migration.name])
                guard done.count == 0 else { return false }
                do {
                    try connection.execute(script: migration.sql)
                } catch {
                    throw MigrationError(file: migration.name, reason: String(describing: error))
                }
                try connection.query("INSERT INTO schema_migrations (name) VALUES ($1)", [migration.name])
                return true
            }
            if didApply { applied.append(migration.name) }
        }
        return applied
    }

    /// Serializes migrators across processes until the end of the transaction that takes it.
    private static let lock = "SELECT pg_advisory_xact_lock(7484001)"
}

extension Migrator {
    /// The migrations not yet applied to this database (all of them when it was never migrated).
    public func pending(_ connection: PostgresConnection) async throws -> [String] {
        let exists = try await connection.query("SELECT to_regclass('schema_migrations') IS NOT NULL AS present")
        let applied: Set<String> =
            try exists.first?.bool("present") == true
            ? Set(try await connection.query("SELECT name FROM schema_migrations").compactMap { try $0.string("name") })
            : []
        return try migrations().map(\.name).filter { !applied.contains($0) }
    }
}
