import ArgumentParser
import Foundation
import PipelineCore

/// `pipeline report`: where the money went (accepted expenses), or one item's price over time and across stores.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Spend by month, category or merchant (accepted expenses), or an item's price history.",
        discussion: """
            Receipts still waiting for review are not counted until accepted (pipeline review list shows them).
            Examples:
              pipeline report --by category --month 2024-05
              pipeline report --by merchant --csv
              pipeline report --item milk
            """
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: "month, category or merchant.")
    var by = "month"

    @Option(help: ArgumentHelp("Only this month.", valueName: "YYYY-MM"))
    var month: String?

    @Option(
        help: ArgumentHelp("Price history of items whose name contains this (accepted expenses).", valueName: "name"))
    var item: String?

    @Flag(help: "JSON output.") var json = false
    @Flag(help: "CSV output.") var csv = false

    func validate() throws {
        let _: SpendingGrouping = try parseChoice(by, flag: "--by")
        if let month, month.wholeMatch(of: /\d{4}-(0[1-9]|1[0-2])/) == nil {
            throw ValidationError("--month must look like 2024-05 (got \"\(month)\").")
        }
        if json && csv { throw ValidationError("give --json or --csv, not both") }
        if let item, item.trimmingCharacters(in: .whitespaces).isEmpty {
            throw ValidationError("--item needs a name to search for, e.g. --item milk")
        }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            let grouping: SpendingGrouping = try parseChoice(by, flag: "--by")
            try await context.withReviewStore(label: "report") { store in
                if let item {
                    let points = try await store.priceHistory(item: item, limit: 1000)
                    print(try render(points.map(PriceRow.init), header: PriceRow.header))
                } else {
                    let rows = try await store.spending(by: grouping, month: month)
                    print(try render(rows.map(SpendRow.init), header: SpendRow.header(grouping)))
                }
            }
        }
    }

    private func render<Row: ReportRow>(_ rows: [Row], header: [String]) throws -> String {
        if json {
            return try JSONOutput.text(rows)
        }
        let table = [header] + rows.map(\.cells)
        if csv { return table.map { $0.map(csvField).joined(separator: ",") }.joined(separator: "\n") }
        guard !rows.isEmpty else { return "no accepted expenses match (receipts waiting for review are not counted)" }
        let widths = header.indices.map { column in table.map { $0[column].count }.max() ?? 0 }
        return table.map { cells in
            zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}

/// A report line as table cells and as JSON.
private protocol ReportRow: Encodable {
    var cells: [String] { get }
}

private struct SpendRow: ReportRow {
    let key: String
    let currency: String
    let expenses: Int
    let total: String

    init(_ row: SpendingRow) {
        key = row.key
        currency = row.currency ?? ""
        expenses = row.expenses
        total = moneyText(row.total)
    }

    static func header(_ grouping: SpendingGrouping) -> [String] {
        [grouping.rawValue, "currency", "expenses", "total"]
    }
    var cells: [String] { [key, currency, String(expenses), total] }
}

private struct PriceRow: ReportRow {
    let receipt: Int64
    let date: String
    let merchant: String
    let item: String
    let quantity: String
    let unitPrice: String
    let totalPrice: String
    let currency: String

    init(_ point: PricePoint) {
        receipt = point.receiptID
        date = point.date ?? ""
        merchant = point.merchant ?? ""
        item = point.itemName
        quantity = point.quantity.map { "\($0)" } ?? ""
        unitPrice = point.unitPrice.map(moneyText) ?? ""
        totalPrice = point.totalPrice.map(moneyText) ?? ""
        currency = point.currency ?? ""
    }

    static let header = ["receipt", "date", "merchant", "item", "quantity", "unit price", "total price", "currency"]
    var cells: [String] { [String(receipt), date, merchant, item, quantity, unitPrice, totalPrice, currency] }
}
