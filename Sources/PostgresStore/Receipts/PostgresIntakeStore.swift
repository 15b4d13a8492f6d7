import PipelineCore

/// The intake store on PostgreSQL: receipts keyed by hash, each stored with its job in one transaction.
public struct PostgresIntakeStore: IntakeStore {
    let database: any PostgresSessions

    /// - Parameter database: a command's connection, or the server's pool.
    public init(database: any PostgresSessions) {
        self.database = database
    }

    public func storedHashes(among hashes: [String]) async throws -> Set<String> {
        try await run { connection in try await connection.transaction { try ReceiptStore.existing(hashes, in: $0) } }
    }

    public func store(_ receipts: [NewReceipt], maxAttempts: Int) async throws -> [String: Int64] {
        try await run { connection in
            try await connection.transaction { connection in
                let inserted = try ReceiptStore.insert(receipts, in: connection)
                let jobs = receipts.compactMap { receipt in
                    inserted[receipt.sha256].map {
                        NewJob(key: receipt.sha256, receiptID: $0, maxAttempts: maxAttempts)
                    }
                }
                try PostgresWorkQueue.enqueue(jobs, in: connection)
                return inserted
            }
        }
    }

    public func receiptID(sha256: String) async throws -> Int64? {
        try await run { connection in try await ReceiptStore.id(sha256: sha256, from: connection) }
    }

    /// How many receipts are stored (the replay starts only on an empty database).
    public func receiptCount() async throws -> Int {
        try await run { connection in try await ReceiptStore.count(from: connection) }
    }

    /// How far each of these receipts has come (the upload page's progress). Unknown ids are left out.
    public func progress(of receiptIDs: [Int64]) async throws -> [ReceiptProgress] {
        try await run { connection in try await ReceiptStore.progress(of: receiptIDs, in: connection) }
    }

    /// Runs `body` on a connection; a lost database comes out as `IntakeStoreUnreachable` (outside the pool's call,
    /// so the pool still sees the connection fail and drops it).
    private func run<T: Sendable>(_ body: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await database.withConnection(body)
        } catch let error as PostgresError where error.meansDatabaseUnreachable {
            throw IntakeStoreUnreachable(cause: error)
        }
    }
}
