import Foundation
import Logging
import PipelineCore

/// The caller's result writes, run in the transaction that acknowledges the job.
public typealias PostgresWrites = @Sendable (isolated PostgresConnection) throws -> Void

/// A handler's completion for the PostgreSQL queue.
public typealias PostgresJobCompletion = JobCompletion<PostgresWrites>

/// The work queue on the `jobs` table (docs/architecture.md): batch claim with `SKIP LOCKED`, leases, batched settlement.
///
/// One instance per worker process. It keeps two connections (claims and heartbeats on one, settlements on the
/// other, so neither waits for the other) plus a listening one for wake-ups; all reconnect after a failure.
/// Enqueueing is a static function run inside the caller's own transaction.
public final class PostgresWorkQueue: WorkQueue {
    public typealias Writes = PostgresWrites

    /// The NOTIFY channel enqueues signal on.
    public static let channel = "pipeline_jobs"

    let target: PostgresTarget
    let retryPolicy: RetryPolicy
    let logger: Logger
    let claimConnection: ReconnectingConnection
    let settleConnection: ReconnectingConnection

    /// - Parameters:
    ///   - target: the database.
    ///   - retryPolicy: the backoff applied to failed attempts.
    ///   - label: prefix of the connections' `application_name`.
    public init(target: PostgresTarget, retryPolicy: RetryPolicy, label: String = "pipeline", logger: Logger) {
        self.target = target
        self.retryPolicy = retryPolicy
        self.logger = logger
        self.claimConnection = ReconnectingConnection(target: target, label: "\(label)-claim", logger: logger)
        self.settleConnection = ReconnectingConnection(target: target, label: "\(label)-settle", logger: logger)
    }

    /// Closes the connections.
    public func close() async {
        await claimConnection.close()
        await settleConnection.close()
    }

    public func claim(limit: Int, owner: UUID, lease: Duration) async throws -> [ClaimedJob] {
        guard limit > 0 else { return [] }
        let parameters: [any PostgresEncodable] = [limit, owner, SQLLiterals.interval(lease), retryPolicy.maxAttempts]
        let rows = try await claimConnection.use { try await $0.queryPrepared(QueueStatements.claim, parameters) }
        return try rows.map { row throws(PostgresError) in
            ClaimedJob(
                id: try row.requiredID("id"), kind: try row.requiredValue("kind", as: JobKind.self),
                key: try row.string("key"),
                receiptID: try row.int("receipt_id").map(Int64.init), priority: try row.requiredInt("priority"),
                attempt: try row.requiredInt("attempts"), maxAttempts: try row.requiredInt("max_attempts"))
        }
    }

    public func renew(_ ids: [Int64], owner: UUID, lease: Duration) async throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        let parameters: [any PostgresEncodable] = [SQLLiterals.array(ids), owner, SQLLiterals.interval(lease)]
        let rows = try await claimConnection.use { try await $0.queryPrepared(QueueStatements.renew, parameters) }
        return Set(try rows.map { row throws(PostgresError) in try row.requiredID("id") })
    }

    public func settle(_ settlements: [JobSettlement<PostgresWrites>], owner: UUID) async throws -> SettlementReport {
        guard !settlements.isEmpty else { return SettlementReport() }
        let policy = retryPolicy
        let needsTransaction = settlements.contains { settlement in
            if case .completed(nil) = settlement.outcome { return false }
            return true
        }
        return try await settleConnection.use { connection in
            guard needsTransaction else {
                return try await connection.settleCompletions(settlements.map(\.job.id), owner: owner)
            }
            return try await connection.transaction { connection in
                try JobSettler(owner: owner, policy: policy).settle(settlements, in: connection)
            }
        }
    }

    public func rescueExpired() async throws -> Int {
        try await claimConnection.use { connection in
            try await connection.transaction { connection in
                let rows = try connection.queryPrepared(QueueStatements.rescue, [retryPolicy.maxAttempts])
                let requeued = try rows.filter { try $0.string("state") == JobState.ready.rawValue }.count
                if requeued > 0 { try connection.queryPrepared(QueueStatements.notify, [Self.channel]) }
                return rows.count
            }
        }
    }

    public func hasPendingWork() async throws -> Bool {
        try await claimConnection.use {
            try await $0.queryPrepared(QueueStatements.pending).first?.bool("pending") ?? true
        }
    }

    public func timeUntilNextDueJob() async throws -> Duration? {
        let row = try await claimConnection.use { try await $0.queryPrepared(QueueStatements.nextDue).first }
        return try row?.double("due_in").map { Duration.seconds(max($0, 0)) }
    }

    public func deleteFinished(olderThan age: Duration, batchSize: Int) async throws -> Int {
        let parameters: [any PostgresEncodable] = [SQLLiterals.interval(age), batchSize]
        return try await claimConnection.use {
            try await $0.queryPrepared(QueueStatements.deleteFinished, parameters).affectedRows
        }
    }

    public func listen(_ wake: @escaping @Sendable () async -> Void) async {
        await QueueListener(target: target, channel: Self.channel, logger: logger).listen(wake)
    }
}

extension PostgresConnection {
    /// Marks completions without writes done in one statement; the fast path of `settle`.
    fileprivate func settleCompletions(_ ids: [Int64], owner: UUID) throws -> SettlementReport {
        let rows = try queryPrepared(QueueStatements.complete, [SQLLiterals.array(ids), owner])
        var report = SettlementReport()
        report.done = try rows.map { row throws(PostgresError) in try row.requiredID("id") }
        let held = Set(report.done)
        report.lost = ids.filter { !held.contains($0) }
        return report
    }
}
