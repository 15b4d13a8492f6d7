import PipelineCore

extension PostgresWorkQueue {
    /// Enqueues jobs in one statement; a key already queued (or repeated in `jobs`) is skipped.
    ///
    /// The same statement sends one NOTIFY (empty payload, delivered at commit) when anything was inserted. Call it
    /// inside `connection.transaction { conn in … }` so the receipt rows and their jobs commit together (outside
    /// a transaction it commits on its own), once per transaction with the whole batch: each call opens a
    /// subtransaction, and a transaction with more than 64 of them slows every other session's snapshots.
    /// - Returns: how many jobs were inserted (duplicates excluded).
    @discardableResult
    public static func enqueue(_ jobs: [NewJob], in connection: isolated PostgresConnection) throws(PostgresError)
        -> Int
    {
        guard !jobs.isEmpty else { return 0 }
        let parameters: [any PostgresEncodable] = [
            SQLLiterals.array(jobs.map(\.key)),
            SQLLiterals.array(jobs.map { $0.receiptID.map(String.init) }),
            SQLLiterals.array(jobs.map { Optional($0.kind.rawValue) }),
            SQLLiterals.array(jobs.map(\.priority)),
            SQLLiterals.array(jobs.map(\.maxAttempts)),
            channel,
        ]
        return try connection.queryPrepared(QueueStatements.enqueue, parameters).first?.requiredInt("inserted") ?? 0
    }

    /// Enqueues one job inside the caller's transaction (see `enqueue(_:in:)`); returns false for a duplicate key.
    @discardableResult
    public static func enqueue(_ job: NewJob, in connection: isolated PostgresConnection) throws(PostgresError) -> Bool
    {
        try enqueue([job], in: connection) == 1
    }

    /// The states of the jobs of each given receipt that has any (a receipt's first job, and any reprocessing).
    public static func jobStates(ofReceipts receiptIDs: [Int64], in connection: isolated PostgresConnection)
        throws(PostgresError) -> [Int64: [(job: Int64, state: String)]]
    {
        guard !receiptIDs.isEmpty else { return [:] }
        let rows = try connection.query(
            "SELECT id, receipt_id, state::text AS state FROM jobs WHERE receipt_id = ANY($1::bigint[]) ORDER BY id",
            [SQLLiterals.array(receiptIDs)])
        var states: [Int64: [(job: Int64, state: String)]] = [:]
        for row in rows {
            guard let receipt = try row.int("receipt_id"), let job = try row.int("id") else { continue }
            states[Int64(receipt), default: []].append((Int64(job), try row.string("state") ?? ""))
        }
        return states
    }

    /// Puts dead jobs back to ready with fresh attempts (their error history stays); nil means every dead job.
    /// - Returns: how many were requeued.
    @discardableResult
    public static func requeueDead(_ ids: [Int64]?, in connection: isolated PostgresConnection) throws(PostgresError)
        -> Int
    {
        let requeued = try connection.queryPrepared(QueueStatements.requeueDead, [ids.map { SQLLiterals.array($0) }])
            .affectedRows
        if requeued > 0 { try connection.queryPrepared(QueueStatements.notify, [channel]) }
        return requeued
    }
}
