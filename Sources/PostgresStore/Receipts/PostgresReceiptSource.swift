import PipelineCore

/// Stored receipt images from the `receipts` table, over one connection that is reset after a dropped link.
public struct PostgresReceiptSource: ReceiptSource {
    private let connection: PostgresConnection

    public init(connection: PostgresConnection) {
        self.connection = connection
    }

    public func receipt(_ id: Int64) async throws -> StoredReceipt? {
        do {
            return try await ReceiptStore.load(id, from: connection)
        } catch let error as PostgresError where error.isTransient {
            try? await connection.reset()
            throw error
        }
    }
}
