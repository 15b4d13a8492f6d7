import Foundation
import PipelineCore

/// What the app does with the database while a session lasts (`PostgresDatabase.session`): the stores over its
/// connection (or the server's pool), the reads the commands print, migrations, and transactions. It holds no
/// connection the caller can reach: each operation takes one for its own statements.
public struct PostgresSession: Sendable {
    /// One connection (a command's) or a pool (a server's).
    let connections: any PostgresSessions
    /// The database this session is on: where a second connection of the same command goes.
    public let database: PostgresDatabase

    init(on connections: any PostgresSessions, of database: PostgresDatabase) {
        self.connections = connections
        self.database = database
    }

    // MARK: - Stores

    /// The review pages' and commands' store.
    public var reviewStore: PostgresReviewStore { PostgresReviewStore(database: connections) }

    /// Where `ingest`, the watched folder and the upload page store receipts with their jobs.
    public var intakeStore: PostgresIntakeStore { PostgresIntakeStore(database: connections) }

    /// Where the worker loads a job's receipt.
    public var receiptSource: PostgresReceiptSource { PostgresReceiptSource(database: connections) }

    /// Merchant names people taught, for extraction.
    public var learnedMerchants: PostgresLearnedMerchants { PostgresLearnedMerchants(database: connections) }

    /// Categories people chose, for categorization.
    public var categoryHistory: PostgresCategoryHistory { PostgresCategoryHistory(database: connections) }

    /// Where an attempt's LLM calls (and a failed one's timings) are kept apart from its settlement.
    public var attempts: AttemptStore { AttemptStore(database: connections) }

    // MARK: - Reads

    /// The editable categorization rules (`CategoryRuleStore.load`).
    public func categoryRules() async throws -> [CategoryRule] {
        try await connections.withConnection { try await CategoryRuleStore.load(from: $0) }
    }

    /// The queue's counts by state and its trouble signs (`PostgresWorkQueue.health`).
    public func queueHealth() async throws -> QueueHealth {
        try await connections.withConnection { try await PostgresWorkQueue.health(in: $0) }
    }

    /// Everything `pipeline stats` and `/metrics` show (`StatsStore.snapshot`).
    public func stats(since: Date?, latencyTarget: Duration, pricing: LLMPricing) async throws -> StatsSnapshot {
        try await StatsStore.snapshot(since: since, latencyTarget: latencyTarget, pricing: pricing, from: connections)
    }

    /// The first receipt `reference` names, with everything stored about it (`ReceiptHistory.record`).
    public func receiptRecord(matching reference: String, isHashPrefix: Bool) async throws -> ReceiptHistory.Record? {
        try await ReceiptHistory.record(matching: reference, isHashPrefix: isHashPrefix, from: connections)
    }

    /// Receipts whose last LLM attempt failed, oldest first (`LLMCallStore.failedReceipts`).
    public func llmFailedReceipts() async throws -> [Int64] {
        try await connections.withConnection { try await LLMCallStore.failedReceipts(from: $0) }
    }

    /// Accepted expenses committed since `start`, for the accounting exports (`JournalStore.acceptedExpenses`).
    public func acceptedExpenses(since start: Date) async throws -> [JournalExpense] {
        try await connections.withConnection { try await JournalStore.acceptedExpenses(since: start, from: $0) }
    }

    /// Expenses committed since `start`, with `status` when given, for the CSV and JSON exports (`ExpenseExport`).
    public func exportRows(committedSince start: Date, status: ExpenseStatus?) async throws -> [ExpenseExport.Row] {
        try await connections.withConnection {
            try await ExpenseExport.rows(committedSince: start, status: status, in: $0)
        }
    }

    /// The server's version, e.g. `16.4`; nil when it does not say.
    public func serverVersion() async throws -> String? {
        try await connections.withConnection { try await $0.serverVersion() }
    }

    // MARK: - Migrations

    /// Applies every migration of `database.migrator` not yet recorded.
    /// - Returns: the names applied, in order (empty when the schema was current).
    public func migrate() async throws -> [String] {
        let migrator = database.migrator
        return try await connections.withConnection { try await migrator.migrate($0) }
    }

    /// The migrations of `database.migrator` not yet applied (all of them when the database was never migrated).
    public func pendingMigrations() async throws -> [String] {
        let migrator = database.migrator
        return try await connections.withConnection { try await migrator.pending($0) }
    }

    /// The names of the migrations recorded in the database, whichever migrator applied them.
    public func appliedMigrations() async throws -> Set<String> {
        try await connections.withConnection { try await Migrator.applied(in: $0) }
    }

    // MARK: - Transactions

    /// Runs `body` in one transaction on one connection: committed when it returns, rolled back when it throws.
    /// The body runs on the connection's thread, so its statements follow each other without awaiting.
    public func transaction<T: Sendable>(_ body: @Sendable (PostgresTransaction) throws -> T) async throws -> T {
        try await connections.withConnection { connection in
            try await connection.transaction { connection in try body(PostgresTransaction(connection)) }
        }
    }
}
