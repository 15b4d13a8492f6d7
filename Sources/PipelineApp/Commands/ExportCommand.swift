import ArgumentParser
import Foundation
import PipelineCore
import PostgresStore

/// `pipeline export`: expenses (and their items) as CSV or JSON Lines on stdout.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export expenses and items as CSV or JSON Lines.",
        discussion: """
            CSV has one row per expense (items counted); JSON Lines has one object per expense with its items.
            Examples:
              pipeline export --format csv > expenses.csv
              pipeline export --format jsonl --since 24h --status needs_review
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case csv, jsonl
    }

    @OptionGroup var options: GlobalOptions

    @Option(help: "csv or jsonl.")
    var format: Format = .csv

    @Option(help: ArgumentHelp("Only expenses committed in this window, e.g. 24h.", valueName: "duration"))
    var since: String?

    @Option(help: "Only this status: accepted or needs_review.")
    var status: String?

    func validate() throws {
        if let since, parseDuration(since) == nil {
            throw ValidationError("--since must be a duration such as 30m or 24h (got \"\(since)\").")
        }
        if let status, !["accepted", "needs_review"].contains(status) {
            throw ValidationError("--status must be accepted or needs_review (got \"\(status)\").")
        }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            let start =
                since.flatMap(parseDuration).map { Date().addingTimeInterval(-Double($0.components.seconds)) }
                ?? Date(timeIntervalSince1970: 0)
            try await context.withConnection(label: "export") { connection in
                let rows = try await connection.query(ExportColumns.query, [start, status])
                if format == .csv { print(ExportColumns.names.joined(separator: ",")) }
                for row in rows {
                    let values = try ExportColumns.names.map { try row.string($0) }
                    switch format {
                    case .csv: print(values.map(csvField).joined(separator: ","))
                    case .jsonl: print(try jsonLine(values, items: row.string("items_json") ?? "[]"))
                    }
                }
            }
        }
    }

    private func jsonLine(_ values: [String?], items: String) throws -> String {
        var object: [String: Any] = [:]
        for (name, value) in zip(ExportColumns.names, values) { object[name] = value ?? NSNull() }
        object["items"] = try JSONSerialization.jsonObject(with: Data(items.utf8))
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}

/// The exported columns (money as exact decimal strings) and the query that reads them.
private enum ExportColumns {
    static let names = [
        "expense_id", "receipt_id", "file", "merchant", "date", "currency", "subtotal", "discounts", "fees", "tax",
        "tip", "total", "category", "payment_method", "status", "validation_outcome", "item_count", "committed_at",
        "possible_duplicate_of", "date_is_ambiguous", "review_reasons", "corrected", "merchant_trust", "date_trust",
        "total_trust",
    ]

    static let query = """
        SELECT e.id::text AS expense_id, e.receipt_id::text AS receipt_id, r.original_path AS file, e.merchant,
               e.expense_date::text AS date, e.currency, money_text(e.subtotal) AS subtotal, money_text(e.discounts) AS discounts,
               money_text(e.fees) AS fees, money_text(e.tax) AS tax, money_text(e.tip) AS tip, money_text(e.total) AS total, e.category,
               e.payment_method, e.status, e.validation_outcome,
               (SELECT count(*) FROM expense_items i WHERE i.expense_id = e.id)::text AS item_count,
               e.committed_at::text AS committed_at,
               (SELECT d.receipt_id::text FROM expenses d WHERE d.id = e.possible_duplicate_of)
                   AS possible_duplicate_of,
               e.date_is_ambiguous::text AS date_is_ambiguous,
               array_to_string(e.review_reasons, ' ')
                   AS review_reasons,
               (SELECT string_agg(DISTINCT c.field, ' ') FROM corrections c WHERE c.receipt_id = e.receipt_id)
                   AS corrected,
               e.field_sources -> 'merchant' ->> 'trust' AS merchant_trust,
               e.field_sources -> 'date' ->> 'trust' AS date_trust,
               e.field_sources -> 'total' ->> 'trust' AS total_trust,
               (SELECT coalesce(json_agg(json_build_object('name', i.name, 'quantity', i.quantity::text,
                    'unitPrice', money_text(i.unit_price), 'totalPrice', money_text(i.total_price), 'category', i.category)
                    ORDER BY i.position), '[]')::text FROM expense_items i WHERE i.expense_id = e.id) AS items_json
        FROM expenses e JOIN receipts r ON r.id = e.receipt_id
        WHERE e.committed_at >= $1 AND ($2::text IS NULL OR e.status = $2)
        ORDER BY e.id
        """
}
