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
                let rows = try await ExpenseExport.rows(committedSince: start, status: status, in: connection)
                if format == .csv { print(ExpenseExport.columns.joined(separator: ",")) }
                for row in rows {
                    let values = try ExpenseExport.columns.map { try row.string($0) }
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
        for (name, value) in zip(ExpenseExport.columns, values) { object[name] = value ?? NSNull() }
        object["items"] = try JSONSerialization.jsonObject(with: Data(items.utf8))
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}
