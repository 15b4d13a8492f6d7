import Foundation
import PostgresStore
import TestSupport
import Testing

@Suite struct MigratorTests {
    @Test func freshDatabaseGetsEveryMigrationThenNothingOnRerun() async throws {
        try await TestDatabase.withEmptyDatabase { url in
            let connection = try await PostgresConnection.connect(to: PostgresTarget(url))
            let migrator = Migrator(directory: TestDatabase.migrations)
            let expected = try migrator.migrations().map(\.name)

            let first = try await migrator.migrate(connection)
            let second = try await migrator.migrate(connection)
            let tables = try await connection.query(
                """
                SELECT count(*) AS n FROM information_schema.tables
                WHERE table_name IN ('receipts', 'jobs', 'expenses', 'expense_items', 'stage_timings', 'category_rules')
                """)
            await connection.close()

            #expect(!expected.isEmpty)
            #expect(first == expected)
            #expect(second.isEmpty)
            #expect(try tables.first?.int("n") == 6)
        }
    }

    /// Issue 14 item 2: several processes migrating a new database at once (workers starting together) all succeed.
    @Test func concurrentMigratorsOnAFreshDatabaseAllSucceed() async throws {
        for _ in 0..<6 {
            try await TestDatabase.withEmptyDatabase { url in
                var connections: [PostgresConnection] = []
                for _ in 0..<6 { connections.append(try await PostgresConnection.connect(to: PostgresTarget(url))) }
                let migrator = Migrator(directory: TestDatabase.migrations)
                let results = await withTaskGroup(of: Result<[String], any Error>.self) { group in
                    for connection in connections {
                        group.addTask {
                            do {
                                return .success(try await migrator.migrate(connection))
                            } catch {
                                return .failure(error)
                            }
                        }
                    }
                    return await group.reduce(into: []) { $0.append($1) }
                }
                for connection in connections { await connection.close() }

                let failures = results.compactMap { result -> String? in
                    if case .failure(let error) = result { return String(describing: error) }
                    return nil
                }
                #expect(failures.isEmpty, "\(failures)")
                let applied = results.compactMap { try? $0.get() }.flatMap { $0 }
                #expect(applied.sorted() == (try migrator.migrations().map(\.name)), "each file applied exactly once")
            }
        }
    }

    /// Issue 14 item 9: the binary carries every file of migrations/, byte for byte.
    @Test func embeddedMigrationsAreTheCheckoutsFiles() throws {
        let embedded = try Migrator.embedded.migrations()
        let folder = try Migrator(directory: TestDatabase.migrations).migrations()
        #expect(embedded.map(\.name) == folder.map(\.name))
        #expect(embedded == folder)
    }

    @Test func failingMigrationLeavesTheDatabaseAsItWasAndNamesTheFile() async throws {
        let folder = try TestEnvironment.makeTemporaryFolder("migrations")
        defer { try? FileManager.default.removeItem(at: folder) }
        try "CREATE TABLE first (id int);".write(
            to: folder.appendingPathComponent("0001_first.sql"), atomically: true, encoding: .utf8)
        try "CREATE TABLE second (id int);\nSELECT no_such_function();".write(
            to: folder.appendingPathComponent("0002_broken.sql"), atomically: true, encoding: .utf8)

        try await TestDatabase.withEmptyDatabase { url in
            let connection = try await PostgresConnection.connect(to: PostgresTarget(url))
            let error = await #expect(throws: MigrationError.self) {
                _ = try await Migrator(directory: folder).migrate(connection)
            }
            let recorded = try await connection.query("SELECT name FROM schema_migrations ORDER BY name")
            let second = try await connection.query("SELECT to_regclass('second') IS NULL AS absent")
            await connection.close()

            #expect(error?.file == "0002_broken.sql")
            #expect(error?.description.contains("no_such_function") == true)
            #expect(try recorded.map { try $0.string("name") } == ["0001_first.sql"])
            #expect(try second.first?.bool("absent") == true)
        }
    }

    @Test func badlyNamedFileIsRefusedBeforeAnythingRuns() throws {
        let folder = try TestEnvironment.makeTemporaryFolder("migrations")
        defer { try? FileManager.default.removeItem(at: folder) }
        try "SELECT 1;".write(to: folder.appendingPathComponent("schema.sql"), atomically: true, encoding: .utf8)
        let error = #expect(throws: MigrationError.self) { _ = try Migrator(directory: folder).migrations() }
        #expect(error?.description.contains("0001_description.sql") == true)
    }

    @Test func missingFolderIsNamedWithTheSettingToFix() {
        let error = #expect(throws: MigrationError.self) {
            _ = try Migrator(directory: URL(fileURLWithPath: "/nonexistent/migrations")).migrations()
        }
        #expect(error?.description.hasPrefix("cannot read the migrations folder /nonexistent/migrations") == true)
        #expect(error?.description.contains("database.migrations") == true)
    }
}
