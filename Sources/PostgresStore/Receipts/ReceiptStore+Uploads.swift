import PipelineCore

extension ReceiptStore {
    /// How far each of these receipts has come: committed (with its status), its job dead, running or waiting.
    /// Unknown ids are left out.
    public static func progress(of ids: [Int64], in connection: PostgresConnection) async throws
        -> [ReceiptProgress]
    {
        guard !ids.isEmpty else { return [] }
        let rows = try await connection.query(
            """
            SELECT r.id, e.status,
                   (SELECT j.state FROM jobs j WHERE j.receipt_id = r.id ORDER BY j.id DESC LIMIT 1) AS job_state
            FROM receipts r LEFT JOIN expenses e ON e.receipt_id = r.id
            WHERE r.id = ANY($1::bigint[])
            ORDER BY r.id
            """, [SQLLiterals.array(ids)])
        return try rows.map { row in
            let status = try row.value("status", as: ExpenseStatus.self)
            let stage: ProcessingStage =
                switch (status, try row.string("job_state").flatMap(JobState.init(rawValue:))) {
                case (.some, _), (nil, .done): .done
                case (nil, .dead): .failed
                case (nil, .running): .processing
                case (nil, .ready), (nil, nil): .queued
                }
            return ReceiptProgress(receiptID: try row.requiredID("id"), stage: stage, status: status)
        }
    }
}
