import PipelineCore

/// Stored receipt images from the `receipts` table, over one connection that is reset after a dropped link.
public struct PostgresReceiptSource: ReceiptSource {
    private let database: any PostgresSessions

    /// - Parameter database: the worker's reading connection.
    public init(database: any PostgresSessions) {
        self.database = database
    }

    public func receipt(_ id: Int64) async throws -> StoredReceipt? {
        try await database.withConnection { connection in
            do {
                return try await ReceiptStore.load(id, from: connection)
            } catch let error as PostgresError where error.isTransient {
                try? await connection.reset()
                throw error
            }
        }
    }
}
