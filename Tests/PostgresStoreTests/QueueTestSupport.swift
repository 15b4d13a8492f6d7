import Foundation
import Logging
import PipelineCore
import PostgresStore

/// Helpers shared by the queue tests: a queue on a test database and quick looks at `jobs` rows.
enum QueueFixture {
    static let policy = RetryPolicy(base: .seconds(1), cap: .seconds(600))

    static func queue(_ url: String) -> PostgresWorkQueue {
        PostgresWorkQueue(
            target: PostgresTarget(url), retryPolicy: policy, label: "test", logger: Logger(label: "test"))
    }

    /// Enqueues jobs keyed `prefix-0…` in one transaction.
    static func enqueue(_ count: Int, prefix: String = "job", maxAttempts: Int = 5, on connection: PostgresConnection)
        async throws -> Int
    {
        try await connection.transaction { connection in
            try PostgresWorkQueue.enqueue(
                (0..<count).map { NewJob(key: "\(prefix)-\($0)", maxAttempts: maxAttempts) }, in: connection)
        }
    }

    /// One job's row: state, attempts, error history and timing.
    struct Row {
        let state: String
        let attempts: Int
        let errors: [[String: Any]]
        let runAtFromNow: Double
        let leaseOwner: String?
        let lastError: String?
    }

    static func row(_ id: Int64, on connection: PostgresConnection) async throws -> Row {
        let row = try await connection.query(
            """
            SELECT state, attempts, errors::text AS errors, extract(epoch FROM run_at - now()) AS run_in,
                lease_owner::text AS owner, last_error FROM jobs WHERE id = $1
            """, [id]
        ).first!
        let errors = try JSONSerialization.jsonObject(with: Data((try row.string("errors") ?? "[]").utf8))
        return Row(
            state: try row.string("state") ?? "", attempts: try row.int("attempts") ?? -1,
            errors: errors as? [[String: Any]] ?? [], runAtFromNow: try row.double("run_in") ?? 0,
            leaseOwner: try row.string("owner"), lastError: try row.string("last_error"))
    }

    /// Makes every ready job due now (skips a retry's backoff).
    static func makeDue(on connection: PostgresConnection) async throws {
        try await connection.query("UPDATE jobs SET run_at = now() WHERE state = 'ready'")
    }
}
