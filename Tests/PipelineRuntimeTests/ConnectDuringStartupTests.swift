import Foundation
import PostgresStore
import Testing

/// A worker started while PostgreSQL restarts waits the start-up out within its connect timeout instead of exiting
/// on SQLSTATE 57P03; a server that stays down still fails once the timeout has passed.
@Suite(.serialized) struct ConnectDuringStartupTests {
    @Test func aConnectionWaitsForAServerThatIsStartingUp() async throws {
        let server = try PrivatePostgres()
        defer { server.remove() }
        try server.restartRefusingConnections()
        let target = PostgresTarget(server.url(), connectTimeout: .seconds(60))
        let connecting = Task { try await PostgresConnection.connect(to: target, label: "worker") }
        try await Task.sleep(for: .seconds(2))
        try server.promote()

        let connection = try await connecting.value
        let answer = try await connection.query("SELECT 1 AS one").first?.int("one")
        await connection.close()

        #expect(answer == 1)
    }

    @Test func aServerStillStartingUpAfterTheTimeoutFailsWithItsReason() async throws {
        let server = try PrivatePostgres()
        defer { server.remove() }
        try server.restartRefusingConnections()
        let started = ContinuousClock.now

        await #expect {
            _ = try await PostgresConnection.connect(to: PostgresTarget(server.url(), connectTimeout: .seconds(2)))
        } throws: { error in
            (error as? PostgresError)?.meansServerStartingUp == true
        }
        #expect(ContinuousClock.now - started >= .seconds(2))
    }

    /// The pages' pool after a restart: its idle connection died with the server; the next call reconnects.
    @Test func aPoolReconnectsAfterARestart() async throws {
        let server = try PrivatePostgres()
        defer { server.remove() }
        let pool = PostgresConnectionPool(target: PostgresTarget(server.url()), size: 2, label: "pages")
        let before = try await pool.withConnection { try await $0.query("SELECT 1 AS one").first?.int("one") }
        try server.restart()
        try await Task.sleep(for: .seconds(3))

        let after = try await pool.withConnection { try await $0.query("SELECT 1 AS one").first?.int("one") }
        await pool.close()

        #expect(before == 1)
        #expect(after == 1)
    }
}
