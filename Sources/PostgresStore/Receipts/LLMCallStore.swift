import Foundation
import PipelineCore

/// The LLM call budget and failures of receipts, and the OCR page kept of a receipt at ingest or by its first
/// attempt (`migrations/0020_llm_calls.sql`).
public enum LLMCallStore {
    /// Records one attempt's calls: adds them to the receipt's budget used and sets or clears its failure code.
    public static func record(
        _ outcome: LLMCallOutcome, receiptID: Int64, jobID: Int64?, attempt: Int,
        in connection: isolated PostgresConnection
    ) throws(PostgresError) {
        try connection.query(
            """
            INSERT INTO llm_calls (receipt_id, job_id, attempt, calls, outcome, message)
            VALUES ($1, $2, $3, $4, $5, $6)
            """, [receiptID, jobID, attempt, outcome.calls, outcome.outcome.rawValue, outcome.message])
        try connection.query(
            """
            UPDATE receipts SET llm_calls_used = llm_calls_used + $2,
                                llm_failure = $3
            WHERE id = $1
            """, [receiptID, outcome.calls, outcome.outcome.failure?.rawValue])
    }

    /// Calls already made for the receipt over all its attempts.
    public static func callsUsed(receiptID: Int64, from connection: PostgresConnection) async throws -> Int {
        try await connection.query("SELECT llm_calls_used FROM receipts WHERE id = $1", [receiptID])
            .first?.requiredInt("llm_calls_used") ?? 0
    }

    /// Gives a receipt its whole budget back and clears its failure (before a deliberate re-run through the model).
    public static func resetBudget(receiptIDs: [Int64], in connection: isolated PostgresConnection)
        throws(PostgresError)
    {
        for id in receiptIDs {
            try connection.query("UPDATE receipts SET llm_calls_used = 0, llm_failure = NULL WHERE id = $1", [id])
        }
    }

    /// Receipts whose last LLM attempt failed, optionally only with these codes, oldest first.
    public static func failedReceipts(codes: [VisionModelError.Code]? = nil, from connection: PostgresConnection)
        async throws -> [Int64]
    {
        let rows = try await connection.query(
            """
            SELECT id FROM receipts
            WHERE llm_failure IS NOT NULL AND ($1::text IS NULL OR llm_failure = ANY(string_to_array($1, ',')))
            ORDER BY id
            """, [codes?.map(\.rawValue).joined(separator: ",")])
        return try rows.compactMap { try $0.int("id").map(Int64.init) }
    }

    /// Failed attempts since `start` by failure code: attempts and calls.
    public static func failuresByReason(since start: Date, from connection: PostgresConnection) async throws
        -> [VisionModelError.Code: (attempts: Int, calls: Int)]
    {
        var reasons: [VisionModelError.Code: (attempts: Int, calls: Int)] = [:]
        for row in try await connection.query(
            """
            SELECT outcome, count(*) AS attempts, coalesce(sum(calls), 0) AS calls FROM llm_calls
            WHERE outcome <> $2 AND at >= $1 GROUP BY outcome
            """, [start, LLMCallOutcome.Ending.answered.rawValue])
        {
            reasons[try row.requiredValue("outcome", as: VisionModelError.Code.self)] = (
                try row.requiredInt("attempts"), try row.requiredInt("calls")
            )
        }
        return reasons
    }

    /// Keeps what an attempt leaves on its receipt: its LLM calls (`record`) and the page it read afresh.
    public static func record(
        _ trace: AttemptTrace, receiptID: Int64, jobID: Int64?, attempt: Int, in connection: isolated PostgresConnection
    ) throws {
        if let calls = trace.llmCalls {
            try record(calls, receiptID: receiptID, jobID: jobID, attempt: attempt, in: connection)
        }
        if let page = trace.newPage { try keep(page, receiptID: receiptID, in: connection) }
    }

    /// Keeps an OCR page of the receipt (with the model's copy of the image, if any) for later attempts.
    public static func keep(_ kept: KeptPage, receiptID: Int64, in connection: isolated PostgresConnection) throws {
        let json = String(decoding: try JSONEncoder().encode(kept.page), as: UTF8.self)
        try connection.query(
            """
            UPDATE receipts SET ocr_page = $2::jsonb, ocr_page_made_by = $3, ocr_page_llm_image = $4 WHERE id = $1
            """, [receiptID, json, kept.madeBy.rawValue, kept.llmImage])
    }

    /// The kept page of a receipt from a row holding `ocr_page` (as text) and `ocr_page_made_by`, nil when none.
    static func keptPage(in row: PostgresRow, llmImage: [UInt8]?) throws -> KeptPage? {
        guard let text = try row.string("ocr_page"),
            let madeBy = try row.value("ocr_page_made_by", as: OCREngineChoice.self)
        else {
            return nil
        }
        let page = try JSONDecoder().decode(OCRPage.self, from: Data(text.utf8))
        return KeptPage(page: page, madeBy: madeBy, llmImage: llmImage.map { Data($0) })
    }
}
