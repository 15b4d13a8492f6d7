import PipelineCore

extension JobCompletion where Writes == PostgresWrites {
    /// A receipt job's completion: the run's expense (rewritten in place when `replacing`, a `reprocess` job) and
    /// what the attempt leaves on the receipt (its LLM calls, the page it read), written in the transaction that
    /// marks the job done.
    public static func receipt(
        _ record: ExpenseRecord, trace: AttemptTrace, receiptID: Int64, job: ClaimedJob, replacing: Bool
    ) -> PostgresJobCompletion {
        PostgresJobCompletion(writes: { connection in
            try ExpenseStore.commit(record, jobID: job.id, attempt: job.attempt, replacing: replacing, in: connection)
            try LLMCallStore.record(trace, receiptID: receiptID, jobID: job.id, attempt: job.attempt, in: connection)
        })
    }

    /// The queue tests' completion (`pipeline-bench queue-worker --record`): the job id and the worker's process id
    /// go into `queue_test_completions` (a table the tests create), so a test sees each job completed exactly once.
    public static func recordingCompletion(of job: ClaimedJob, process: Int) -> PostgresJobCompletion {
        PostgresJobCompletion(writes: { connection in
            try connection.query(
                "INSERT INTO queue_test_completions (job_id, process) VALUES ($1, $2)", [job.id, process])
        })
    }
}
