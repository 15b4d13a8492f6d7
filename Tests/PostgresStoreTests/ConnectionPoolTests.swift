import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// The pages' and uploads' connection pool: bounded, callers beyond it wait their turn, and a caller that waits
/// past the limit fails with a reason (never a connection string).
@Suite struct ConnectionPoolTests {
    @Test func twelveCallersShareThreeConnectionsAndAllSucceed() async throws {
        try await TestDatabase.withMigratedDatabase { _, url in
            let pool = PostgresConnectionPool(target: PostgresTarget(url), size: 3, label: "pool-test")
            let backends = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        try await pool.withConnection { connection in
                            try await connection.query("SELECT pg_backend_pid() AS pid, pg_sleep(0.2)")
                                .first?.int("pid") ?? 0
                        }
                    }
                }
                return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
            }
            await pool.close()

            #expect(backends.count == 3, "distinct server sessions: \(backends)")
        }
    }

    @Test func aCallerWaitingPastTheLimitFailsWithAReason() async throws {
        try await TestDatabase.withMigratedDatabase { _, url in
            let pool = PostgresConnectionPool(
                target: PostgresTarget(url), size: 1, waitLimit: .milliseconds(500), label: "pool-test")
            let holder = Task { try await pool.withConnection { try await $0.query("SELECT pg_sleep(2)") } }
            try await Task.sleep(for: .milliseconds(200))

            await #expect {
                try await pool.withConnection { try await $0.query("SELECT 1") }
            } throws: { error in
                "\(error)".contains("stayed busy") && !"\(error)".contains("127.0.0.1")
            }
            _ = try await holder.value
            await pool.close()
        }
    }
}
