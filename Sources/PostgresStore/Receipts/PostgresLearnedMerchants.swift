import Foundation
import PipelineCore

/// Merchant names people gave: the receipt's own corrected merchant (a reprocess categorizes by it), else the name
/// learned from another receipt with the same header (`merchant_aliases`, migration 0012, filled from accepted
/// expenses too since migration 0090), looked up by the header key (`MerchantHeader`, the same key the alias was
/// stored under); and every known merchant with its headers, for extraction's fuzzy match.
public struct PostgresLearnedMerchants: LearnedMerchants {
    private let database: any PostgresSessions

    /// - Parameter database: the worker's reading connection.
    public init(database: any PostgresSessions) {
        self.database = database
    }

    public func learnedMerchant(ocrText: String, merchantLines: [Int], receiptID: Int64) async throws
        -> LearnedMerchant?
    {
        try await database.withConnection { connection in
            let corrected = try await connection.query(
                """
                SELECT person_value FROM corrections WHERE receipt_id = $1 AND field = 'merchant'
                ORDER BY id DESC LIMIT 1
                """, [receiptID]
            ).first
            if let name = try corrected?.string("person_value") { return LearnedMerchant(id: nil, name: name) }
            guard let key = MerchantHeader.key(ocrText: ocrText, merchantLines: merchantLines) else { return nil }
            let row = try await connection.query(
                """
                SELECT id, merchant FROM merchant_aliases
                WHERE header_key = $1 AND learned_from IS DISTINCT FROM $2
                """, [key, receiptID]
            ).first
            guard let row, let id = try row.int("id"), let name = try row.string("merchant") else { return nil }
            return LearnedMerchant(id: Int64(id), name: name)
        }
    }

    /// How many known merchants extraction compares a page with, the most recently used first.
    public static let knownMerchantLimit = 2000

    /// How many of a merchant's latest accepted expenses teach its layout (`MerchantLayout`).
    public static let layoutExpenses = 5

    public func knownMerchants() async throws -> [KnownMerchant] {
        try await database.withConnection { connection in
            try await connection.query(
                """
                WITH person AS (SELECT DISTINCT receipt_id FROM corrections),
                confirmed AS (
                    SELECT e.merchant, count(*) AS confirmations, count(p.receipt_id) AS by_person
                    FROM expenses e LEFT JOIN person p ON p.receipt_id = e.receipt_id
                    WHERE e.status = 'accepted' GROUP BY e.merchant),
                latest AS (
                    SELECT merchant, printed_layout, id,
                           row_number() OVER (PARTITION BY merchant ORDER BY id DESC) AS recency
                    FROM expenses WHERE status = 'accepted' AND printed_layout IS NOT NULL),
                layouts AS (
                    SELECT merchant, jsonb_agg(printed_layout ORDER BY id DESC)::text AS layouts
                    FROM latest WHERE recency <= $2 GROUP BY merchant)
                SELECT a.merchant, string_agg(a.header_key, E'\\n' ORDER BY a.id) AS readings,
                       coalesce(max(c.confirmations), 0) AS confirmations,
                       coalesce(max(c.by_person), 0) AS by_person, max(l.layouts) AS layouts
                FROM merchant_aliases a LEFT JOIN confirmed c ON c.merchant = a.merchant
                    LEFT JOIN layouts l ON l.merchant = a.merchant
                GROUP BY a.merchant
                ORDER BY max(coalesce(a.last_used_at, a.created_at)) DESC, a.merchant
                LIMIT $1
                """, [Self.knownMerchantLimit, Self.layoutExpenses]
            ).compactMap { row -> KnownMerchant? in
                guard let name = try row.string("merchant") else { return nil }
                let layouts = try row.string("layouts").map {
                    try JSONDecoder().decode([MerchantLayout].self, from: Data($0.utf8))
                }
                return KnownMerchant(
                    name: name, readings: (try row.string("readings") ?? "").split(separator: "\n").map(String.init),
                    confirmations: try row.int("confirmations") ?? 0,
                    personConfirmations: try row.int("by_person") ?? 0,
                    layout: layouts.flatMap(MerchantLayout.merged))
            }
        }
    }
}

extension MerchantLayout {
    /// The layout as the `printed_layout` column stores it (migration 0096); nil when nothing was found printed.
    var storedJSON: String? {
        guard !isEmpty, let data = try? JSONEncoder().encode(self) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
