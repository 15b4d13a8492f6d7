import PipelineCore

/// The `IntakeStore` port's fake: receipts and their jobs kept in memory, keyed by hash as the database keys them.
/// A switch makes every later call fail the way a database that went away does.
public actor InMemoryIntakeStore: IntakeStore {
    /// A job queued with a stored receipt.
    public struct QueuedJob: Sendable, Equatable {
        public let key: String
        public let receiptID: Int64
        public let maxAttempts: Int
    }

    private var ids: [String: Int64] = [:]
    private var messageKeys: Set<String> = []
    public private(set) var jobs: [QueuedJob] = []
    private var failure: (any Error)?

    public init() {}

    /// The stored receipts' hashes with their ids.
    public var receipts: [String: Int64] { ids }

    /// How many distinct e-mails the stored receipts came with.
    public var messageCount: Int { messageKeys.count }

    /// Makes every later call throw `IntakeStoreUnreachable` with this cause (nil: calls work again).
    public func failCalls(with cause: (any Error)?) {
        failure = cause
    }

    public func storedHashes(among hashes: [String]) throws -> Set<String> {
        try checkReachable()
        return Set(hashes.filter { ids[$0] != nil })
    }

    public func store(_ receipts: [NewReceipt], maxAttempts: Int) throws -> [String: Int64] {
        try checkReachable()
        var inserted: [String: Int64] = [:]
        for receipt in receipts {
            // The e-mail is stored even when its receipts are known, as the database stores it.
            if let message = receipt.message { messageKeys.insert(message.key) }
            guard ids[receipt.sha256] == nil else { continue }
            let id = Int64(ids.count + 1)
            ids[receipt.sha256] = id
            inserted[receipt.sha256] = id
            jobs.append(QueuedJob(key: receipt.sha256, receiptID: id, maxAttempts: maxAttempts))
        }
        return inserted
    }

    public func receiptID(sha256: String) throws -> Int64? {
        try checkReachable()
        return ids[sha256]
    }

    private func checkReachable() throws {
        if let failure { throw IntakeStoreUnreachable(cause: failure) }
    }
}
