import PipelineCore

/// What `pipeline-bench queue-bench` does to the `jobs` table around its measurements.
extension PostgresSession {
    /// The server's `synchronous_commit` setting, printed beside the figures.
    public func synchronousCommit() async throws -> String? {
        try await connections.withConnection {
            try await $0.query("SHOW synchronous_commit").first?.string("synchronous_commit")
        }
    }

    /// Empties the `jobs` table and refreshes its statistics, so each run starts from the same table.
    public func emptyJobs() async throws {
        try await connections.withConnection { connection in
            try await connection.execute(script: "TRUNCATE jobs")
            try await connection.execute(script: "VACUUM ANALYZE jobs")
        }
    }

    /// Refreshes the `jobs` table's statistics (after a backlog was enqueued, before it is drained).
    public func analyzeJobs() async throws {
        try await connections.withConnection { try await $0.execute(script: "VACUUM ANALYZE jobs") }
    }

    /// Enqueues jobs in one statement that commits on its own (`PostgresWorkQueue.enqueue`).
    /// - Returns: how many jobs were inserted (duplicates excluded).
    @discardableResult
    public func enqueue(_ jobs: [NewJob]) async throws -> Int {
        try await connections.withConnection { try await PostgresWorkQueue.enqueue(jobs, in: $0) }
    }

    /// How many jobs are done.
    public func doneJobCount() async throws -> Int? {
        try await connections.withConnection {
            try await $0.query("SELECT count(*) AS done FROM jobs WHERE state = 'done'").first?.int("done")
        }
    }
}
