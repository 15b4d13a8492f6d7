import PipelineCore

/// Keeps what a failed attempt did: its stage timings and its LLM calls (charged to the receipt's budget), written
/// apart from the queue's connections, so later attempts and `pipeline show` see them.
public struct FailedAttemptStore: Sendable {
    let database: any PostgresSessions

    /// - Parameter database: the worker's reading connection.
    public init(database: any PostgresSessions) {
        self.database = database
    }

    /// Records the failed run's timings and calls as attempt `attempt` of job `jobID` on receipt `receiptID`, in one
    /// transaction.
    public func record(_ failed: FailedRun, receiptID: Int64, jobID: Int64, attempt: Int) async throws {
        try await database.withConnection { connection in
            try await connection.transaction { connection in
                try ExpenseStore.insertTimings(
                    failed.timings, receiptID: receiptID, jobID: jobID, attempt: attempt, in: connection)
                try LLMCallStore.record(
                    failed.trace, receiptID: receiptID, jobID: jobID, attempt: attempt, in: connection)
            }
        }
    }
}
