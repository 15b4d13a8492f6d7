import Foundation
import PipelineCore
import PostgresStore

/// Looks at and fills the `jobs` table of a test database for the worker tests.
struct QueueDatabase: Sendable {
    let connection: PostgresConnection

    /// Creates the table `queue-worker --record` writes to.
    func prepareRecording() async throws {
        try await connection.execute(
            script: "CREATE TABLE queue_test_completions (job_id bigint NOT NULL, process integer NOT NULL)")
    }

    func enqueue(_ count: Int, prefix: String = "job") async throws {
        _ = try await connection.transaction { connection in
            try PostgresWorkQueue.enqueue((0..<count).map { NewJob(key: "\(prefix)-\($0)") }, in: connection)
        }
    }

    func count(_ state: JobState) async throws -> Int {
        try await connection.query("SELECT count(*) AS n FROM jobs WHERE state = $1", [state.rawValue]).first?.int("n")
            ?? -1
    }

    /// Recorded completions: total and distinct jobs.
    func completions() async throws -> (total: Int, distinct: Int) {
        let row = try await connection.query(
            "SELECT count(*) AS total, count(DISTINCT job_id) AS jobs FROM queue_test_completions"
        ).first
        return (try row?.int("total") ?? -1, try row?.int("jobs") ?? -1)
    }

    /// Jobs still leased to someone.
    func leased() async throws -> Int {
        try await connection.query("SELECT count(*) AS n FROM jobs WHERE lease_owner IS NOT NULL").first?.int("n") ?? -1
    }
}
