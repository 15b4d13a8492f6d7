import Foundation
import PipelineCore

/// Statements over the `receipts` table. Each runs inside the caller's transaction or on a plain connection.
public enum ReceiptStore {
    /// Inserts receipts whose hash is new, each with the page ingest kept of it; known hashes are left alone
    /// (`ON CONFLICT DO NOTHING`), so two ingests running at once store each image once.
    /// - Returns: the new receipt id for each hash this call inserted.
    public static func insert(_ receipts: [NewReceipt], in connection: isolated PostgresConnection) throws
        -> [String: Int64]
    {
        var inserted: [String: Int64] = [:]
        var messages: [String: Int64] = [:]
        for receipt in receipts {
            var messageID: Int64?
            if let message = receipt.message {
                if let known = messages[message.key] {
                    messageID = known
                } else {
                    messageID = try self.message(message, in: connection)
                    messages[message.key] = messageID
                }
            }
            let rows = try connection.query(
                """
                INSERT INTO receipts (sha256, original_name, original_path, format, byte_count, image, message_id)
                VALUES ($1, $2, $3, $4, $5, $6, $7)
                ON CONFLICT (sha256) DO NOTHING
                RETURNING id
                """,
                [
                    receipt.sha256, receipt.originalName, receipt.originalPath, receipt.format.rawValue,
                    receipt.bytes.count, receipt.bytes, messageID,
                ])
            guard let id = try rows.first?.int("id").map(Int64.init) else { continue }
            inserted[receipt.sha256] = id
            if let kept = receipt.keptPage { try LLMCallStore.keep(kept, receiptID: id, in: connection) }
        }
        return inserted
    }

    /// The id of the stored message with `message.key`, storing it first when it is new.
    private static func message(_ message: NewMessage, in connection: isolated PostgresConnection)
        throws(PostgresError) -> Int64?
    {
        let rows = try connection.query(
            """
            INSERT INTO messages (message_key, sender, subject, sent_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (message_key) DO UPDATE SET message_key = EXCLUDED.message_key
            RETURNING id
            """, [message.key, message.sender, message.subject, message.sentAt])
        return try rows.first?.int("id").map(Int64.init)
    }

    /// Which of these hashes are already stored.
    public static func existing(_ hashes: [String], in connection: isolated PostgresConnection)
        throws(PostgresError) -> Set<String>
    {
        guard !hashes.isEmpty else { return [] }
        let rows = try connection.query(
            "SELECT sha256 FROM receipts WHERE sha256 = ANY($1::text[])", [SQLLiterals.array(hashes.map(Optional.some))]
        )
        var found = Set<String>()
        for row in rows { if let hash = try row.string("sha256") { found.insert(hash) } }
        return found
    }

    /// How many receipts are stored.
    public static func count(from connection: PostgresConnection) async throws -> Int {
        try await connection.query("SELECT count(*) AS n FROM receipts").first?.int("n") ?? 0
    }

    /// The id of the receipt stored with this content hash (the whole file's, lowercase hex), if any.
    public static func id(sha256: String, from connection: PostgresConnection) async throws -> Int64? {
        try await connection.query("SELECT id FROM receipts WHERE sha256 = $1", [sha256]).first?.int("id")
            .map(Int64.init)
    }

    /// Loads one receipt with its image bytes, its LLM calls used and the page an earlier attempt kept.
    public static func load(_ id: Int64, from connection: PostgresConnection) async throws -> StoredReceipt? {
        let meta = try await connection.query(
            """
            SELECT sha256, original_name, format, ingested_at, llm_calls_used, ocr_page::text AS ocr_page,
                   ocr_page_made_by
            FROM receipts WHERE id = $1
            """, [id])
        guard let row = meta.first else { return nil }
        let images = try await connection.query(
            "SELECT image, ocr_page_llm_image FROM receipts WHERE id = $1", [id], binaryResult: true
        ).first
        guard let images else { return nil }
        return StoredReceipt(
            id: id, sha256: try row.requiredString("sha256"), originalName: try row.requiredString("original_name"),
            format: try row.requiredValue("format", as: ImageFormat.self), bytes: try images.requiredBytes("image"),
            ingestedAt: try row.requiredDate("ingested_at"), llmCallsUsed: try row.requiredInt("llm_calls_used"),
            keptPage: try LLMCallStore.keptPage(in: row, llmImage: try images.bytes("ocr_page_llm_image")))
    }
}
