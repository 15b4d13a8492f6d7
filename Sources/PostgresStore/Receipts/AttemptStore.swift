import PipelineCore

/// Keeps what an attempt did apart from the queue's settlement, written on the worker's reading connection: a
/// failed attempt's stage timings and LLM calls, and a completed attempt's LLM calls before its result is settled.
/// Calls are charged to the receipt's budget however the attempt ends, so later attempts and `pipeline show` see
/// them even when the result is dropped (its lease passed to another worker).
public struct AttemptStore: Sendable {
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

    /// Charges a completed run's LLM calls (`LLMCallStore.record`) as attempt `attempt` of job `jobID`.
    public func record(_ calls: LLMCallOutcome, receiptID: Int64, jobID: Int64, attempt: Int) async throws {
        try await database.withConnection { connection in
            try await connection.transaction { connection in
                try LLMCallStore.record(calls, receiptID: receiptID, jobID: jobID, attempt: attempt, in: connection)
            }
        }
    }
}
