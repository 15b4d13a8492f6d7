import DatabaseTestSupport
import Foundation
import Logging
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// The app's way into the database (`PostgresDatabase`, `PostgresSession`): a session's connection lives exactly as
/// long as its body, and a session's transaction commits what its body did or, when the body throws, nothing.
@Suite struct DatabaseSessionTests {
    struct Refused: Error {}

    @Test("a session's connection is open during its body and closed after it, also when the body throws")
    func sessionConnectionLifetime() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let database = Self.database(url)
            let label = "session-test-" + UUID().uuidString.prefix(8).lowercased()
            let during = try await database.session(label: label) { _ in
                try await Self.sessions(labeled: label, on: connection)
            }
            let afterReturn = try await Self.sessionsLeft(labeled: label, on: connection)
            await #expect(throws: Refused.self) {
                try await database.session(label: label) { _ in throw Refused() }
            }
            let afterThrow = try await Self.sessionsLeft(labeled: label, on: connection)

            #expect(during == 1)
            #expect(afterReturn == 0, "server sessions left open after the body returned")
            #expect(afterThrow == 0, "server sessions left open after the body threw")
        }
    }

    @Test("a session's transaction leaves nothing when its body throws, and commits when it returns")
    func transactionCommitsOrRollsBack() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            _ = try await QueueFixture.enqueue(2, on: connection)
            try await connection.execute(script: "UPDATE jobs SET state = 'dead', finished_at = now()")
            let database = Self.database(url)
            let (refused, kept, requeued) = try await database.session(label: "transaction-test") { session in
                let refused = await #expect(throws: Refused.self) {
                    try await session.transaction { (transaction) -> Int in
                        _ = try transaction.requeueDead(nil)
                        throw Refused()
                    }
                }
                let kept = try await Self.states(on: connection)
                let requeued = try await session.transaction { try $0.requeueDead(nil) }
                return (refused != nil, kept, requeued)
            }

            #expect(refused)
            #expect(kept == ["dead", "dead"], "the thrown transaction's requeue was not rolled back")
            #expect(requeued == 2)
            #expect(try await Self.states(on: connection) == ["ready", "ready"])
        }
    }

    private static func database(_ url: String) -> PostgresDatabase {
        PostgresDatabase(
            target: PostgresTarget(url), migrator: Migrator(directory: TestDatabase.migrations),
            logger: Logger(label: "test"))
    }

    private static func states(on connection: PostgresConnection) async throws -> [String] {
        try await connection.query("SELECT state::text AS state FROM jobs ORDER BY id").map {
            try $0.requiredString("state")
        }
    }

    private static func sessions(labeled label: String, on connection: PostgresConnection) async throws -> Int {
        try await connection.query(
            "SELECT count(*)::int AS sessions FROM pg_stat_activity WHERE application_name = $1", [label]
        ).first?.requiredInt("sessions") ?? 0
    }

    /// The server sessions named `label` once closed ones are gone (a closed connection's backend exits a moment
    /// after the client hangs up), waiting up to five seconds for them to go.
    private static func sessionsLeft(labeled label: String, on connection: PostgresConnection) async throws -> Int {
        let deadline = ContinuousClock.now + .seconds(5)
        while true {
            let open = try await sessions(labeled: label, on: connection)
            if open == 0 || ContinuousClock.now > deadline { return open }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}
