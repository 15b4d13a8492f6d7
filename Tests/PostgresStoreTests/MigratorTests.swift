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

    /// Migration 0032 gives receipts the LLM could not be asked about their own reason; rows written before it,
    /// listed until then as a disagreement, get it too.
    @Test func migration0032ListsEarlierLLMFailuresAsLLMCallFailed() async throws {
        let folder = try migrationsFolder(before: "0032")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestDatabase.withEmptyDatabase { url in
            let connection = try await PostgresConnection.connect(to: PostgresTarget(url))
            let store = PostgresReviewStore(connection: connection)
            _ = try await Migrator(directory: folder).migrate(connection)
            let notAsked = try await ReviewSeed.receipt(
                text: ReviewSeed.balancedText,
                extraFindings: [LLMCallOutcome.notUsedFindingPrefix + "the server kept failing (HTTP 500)"],
                in: connection)
            let reasonsBefore = try await store.receipt(notAsked)?.reasons

            let applied = try await Migrator(directory: TestDatabase.migrations).migrate(connection)
            let reasonsAfter = try await store.receipt(notAsked)?.reasons
            await connection.close()

            #expect(reasonsBefore == [.llmDisagreement])
            #expect(applied.first == "0032_llm_failed_review_reason.sql")
            #expect(reasonsAfter == [.llmFailed])
        }
    }

    /// Migration 0031 adds a reason for receipts only the acceptance model held back. Rows written before it get
    /// the reason; only those rows are written, nothing else about them changes (a person's corrections and items
    /// stay as they were), and the triggers it switches off for the recompute are on again afterwards.
    @Test func migration0031GivesEarlierRowsTheNewReasonAndChangesNothingElse() async throws {
        let folder = try migrationsFolder(before: "0031")
        defer { try? FileManager.default.removeItem(at: folder) }
        /// Every expense row without its reasons, with its transaction id, and every item.
        func snapshot(_ connection: PostgresConnection) async throws -> (rows: [String], xmins: [String]) {
            let rows = try await connection.query(
                """
                SELECT (to_jsonb(e) - 'review_reasons')::text AS row, e.xmin::text AS xmin,
                       (SELECT string_agg(i.position || ' ' || i.name || ' ' || i.total_price, '; ' ORDER BY i.position)
                        FROM expense_items i WHERE i.expense_id = e.id) AS items
                FROM expenses e ORDER BY e.receipt_id
                """)
            return (
                try rows.map { "\(try $0.string("row") ?? "") items: \(try $0.string("items") ?? "")" },
                try rows.map { try $0.string("xmin") ?? "" }
            )
        }

        try await TestDatabase.withEmptyDatabase { url in
            let connection = try await PostgresConnection.connect(to: PostgresTarget(url))
            let store = PostgresReviewStore(connection: connection)
            _ = try await Migrator(directory: folder).migrate(connection)
            let heldBack = try await ReviewSeed.receipt(text: ReviewSeed.heldBackText, in: connection)
            let unbalanced = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            try await store.review(
                heldBack, corrections: [.total: "5.60"], items: [.remove(position: 2)], decision: nil, by: "alice")
            let reasonsBefore = try await store.receipt(heldBack)?.reasons
            let before = try await snapshot(connection)

            let applied = try await Migrator(directory: TestDatabase.migrations).migrate(connection)
            let after = try await snapshot(connection)
            let heldBackReasons = try await store.receipt(heldBack)?.reasons
            let unbalancedReasons = try await store.receipt(unbalanced)?.reasons
            let triggers = try await connection.query(
                """
                SELECT string_agg(tgname || ' ' || tgenabled::text, ', ' ORDER BY tgname) AS states FROM pg_trigger
                WHERE tgrelid = 'expenses'::regclass AND NOT tgisinternal
                """)
            // A later write still gets the person's total back.
            try await connection.query("UPDATE expenses SET total = 99 WHERE receipt_id = $1", [heldBack])
            let rewritten = try await store.receipt(heldBack)
            await connection.close()

            #expect(reasonsBefore == [], "before 0031 the receipt waited with no reason")
            #expect(applied.first == "0031_low_confidence_review_reason.sql")
            #expect(heldBackReasons == [.lowConfidence])
            #expect(unbalancedReasons == [.unbalanced])
            #expect(after.rows == before.rows)
            #expect(after.xmins.count == 2 && before.xmins.count == 2)
            #expect(after.xmins.first != before.xmins.first, "the held-back row was rewritten")
            #expect(after.xmins.last == before.xmins.last, "the unbalanced row, whose reasons stay, was not")
            #expect(
                try triggers.first?.string("states")
                    == "expenses_10_learned_merchant O, expenses_20_keep_corrections O, "
                    + "expenses_30_keep_item_corrections O, expenses_40_learn_accepted_merchant O")
            #expect(rewritten?.reading(.total)?.value == "5.60")
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
