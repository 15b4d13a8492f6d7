import DatabaseTestSupport
import Foundation
import PipelineCore
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

    /// The database holds data, Swift the rules: after every migration no table has a trigger of its own (the
    /// corrections a person made are kept, and accepted expenses teach, in `KeptCorrections`).
    @Test func noTableKeepsARuleInATrigger() async throws {
        try await TestDatabase.withEmptyDatabase { url in
            let connection = try await PostgresConnection.connect(to: PostgresTarget(url))
            _ = try await Migrator(directory: TestDatabase.migrations).migrate(connection)
            let triggers = try await connection.query(
                "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal ORDER BY tgname"
            ).map { try $0.requiredString("tgname") }
            await connection.close()

            #expect(triggers == [])
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

    /// A temporary folder holding the project's migrations whose names sort before `name`, to migrate a database
    /// to the state just before a migration. The caller removes it.
    private func migrationsFolder(before name: String) throws -> URL {
        let folder = try TestEnvironment.makeTemporaryFolder("migrations")
        for migration in try Migrator(directory: TestDatabase.migrations).migrations() where migration.name < name {
            try migration.sql.write(
                to: folder.appendingPathComponent(migration.name), atomically: true, encoding: .utf8)
        }
        return folder
    }

    /// Migration 0040 stores the one decision's reasons instead of deriving them from the findings' words: rows
    /// written before it keep their reasons, and come out consistent with `needs_review` ⇔ a reason (issue #25).
    @Test func migration0040KeepsEarlierReasonsAndMakesStatusAgreeWithThem() async throws {
        let folder = try migrationsFolder(before: "0040")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestDatabase.withEmptyDatabase { url in
            let connection = try await PostgresConnection.connect(to: PostgresTarget(url))
            let store = PostgresReviewStore(database: connection)
            _ = try await Migrator(directory: folder).migrate(connection)
            /// An expense as the writers before 0040 stored it: findings as words, reasons derived from them.
            func expense(
                status: String, outcome: String, findings: [String], personDecision: String? = nil
            ) async throws -> Int64 {
                // Written as the schema before 0040 holds it (later migrations add receipt columns).
                let hash = (UUID().uuidString + UUID().uuidString).replacingOccurrences(of: "-", with: "").lowercased()
                let id = try #require(
                    try await connection.query(
                        """
                        INSERT INTO receipts (sha256, original_name, original_path, format, byte_count, image)
                        VALUES ($1, 'r.jpg', '/inbox/r.jpg', 'jpeg', 3, '\\xffd8ff'::bytea) RETURNING id
                        """, [hash]
                    ).first?.int("id").map(Int64.init)
                )
                if let personDecision {
                    try await connection.query(
                        """
                        INSERT INTO corrections (receipt_id, field, machine_value, person_value, corrected_by)
                        VALUES ($1, 'status', 'needs_review', $2, 'alice')
                        """, [id, personDecision])
                }
                let data = try JSONSerialization.data(withJSONObject: findings)
                try await connection.query(
                    """
                    INSERT INTO expenses (receipt_id, merchant, total, status, validation_outcome, findings)
                    VALUES ($1, concat('CAFE ', $1::bigint), 5.50, $2, $3, $4::jsonb)
                    """, [id, status, outcome, String(decoding: data, as: UTF8.self)])
                return id
            }
            let unbalanced = try await expense(
                status: "needs_review", outcome: "unbalanced", findings: ["subtotal 6.25 but the total is 7.95"])
            // `scripts/demo`'s wr_58_20: accepted by the model although a check failed.
            let acceptedUnbalanced = try await expense(
                status: "accepted", outcome: "unbalanced", findings: ["subtotal 6.25 but the total is 7.95"])
            let heldBack = try await expense(
                status: "needs_review", outcome: "balanced",
                findings: ["not accepted automatically: the total is right with probability 80.0%"])
            let personAccepted = try await expense(
                status: "needs_review", outcome: "unbalanced", findings: ["subtotal 6.25 but the total is 7.95"],
                personDecision: "accepted")
            let personRejected = try await expense(
                status: "needs_review", outcome: "incomplete", findings: ["no total"], personDecision: "rejected")
            let before = try await store.receipt(acceptedUnbalanced)

            let applied = try await Migrator(directory: TestDatabase.migrations).migrate(connection)
            func state(_ id: Int64) async throws -> (ExpenseStatus?, [ReviewReason]?) {
                let detail = try await store.receipt(id)
                return (detail?.status, detail?.reasons)
            }
            let inconsistent = try await connection.query(
                """
                SELECT count(*) AS n FROM expenses
                WHERE (status = 'needs_review') <> (cardinality(review_reasons) > 0)
                """)
            let findings = try await store.receipt(unbalanced)?.findings
            let refused = await #expect(throws: PostgresError.self) {
                try await connection.query(
                    "UPDATE expenses SET status = 'accepted' WHERE receipt_id = $1", [unbalanced])
            }
            let states = [
                try await state(unbalanced), try await state(acceptedUnbalanced), try await state(heldBack),
                try await state(personAccepted), try await state(personRejected),
            ]
            await connection.close()

            #expect(applied.first == "0040_typed_review_decision.sql")
            #expect(before?.status == .accepted && before?.reasons == [.unbalanced], "the inconsistency 0040 ends")
            #expect(states[0] == (.needsReview, [.unbalanced]))
            #expect(states[1] == (.needsReview, [.unbalanced]), "a reason holds it: it waits for a person")
            #expect(states[2] == (.needsReview, [.totalNotSure]))
            #expect(states[3] == (.accepted, []), "a person's decision leaves no reason to wait")
            #expect(states[4] == (.rejected, []))
            #expect(try inconsistent.first?.int("n") == 0)
            #expect(findings == [Finding(.untyped, "subtotal 6.25 but the total is 7.95")])
            #expect(
                refused?.description.contains("expenses_review_reasons_check") == true, "\(String(describing: refused))"
            )
        }
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
