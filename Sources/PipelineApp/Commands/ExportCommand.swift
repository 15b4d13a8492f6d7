import ArgumentParser
import Foundation
import PipelineCore
import PostgresStore

/// `pipeline export`: expenses (and their items) as CSV or JSON Lines, or accepted expenses as a Ledger/hledger
/// journal, a Beancount file or a CSV for Firefly III and Actual, on stdout.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export expenses as CSV or JSON Lines, or accepted expenses for accounting tools.",
        discussion: """
            csv has one row per expense (items counted); jsonl has one object per expense with its items. ledger             (hledger reads it too) and beancount write accepted expenses as transactions: the merchant as payee,             one posting per category (per item category with accounts.itemPostings), the payment method's account             balancing it, receipt id and file as metadata; accounts come from accounts.* in pipeline.yaml.             import-csv is one row per accepted expense for Firefly III's data importer and Actual             (docs/accounting.md). An accepted expense without a date, total or currency code is left out of             these three and named on stderr (exit 1).
            Examples:
              pipeline export --format csv > expenses.csv
              pipeline export --format jsonl --since 24h --status needs_review
              pipeline export --format ledger > receipts.journal && hledger -f receipts.journal check
              pipeline export --format beancount > receipts.beancount && bean-check receipts.beancount
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case csv, jsonl, ledger, beancount
        case importCSV = "import-csv"

        /// The accounting formats: accepted expenses only.
        var isAccounting: Bool { ![.csv, .jsonl].contains(self) }
    }

    @OptionGroup var options: GlobalOptions

    @Option(help: "csv, jsonl, ledger, beancount or import-csv.")
    var format: Format = .csv

    @Option(help: ArgumentHelp("Only expenses committed in this window, e.g. 24h.", valueName: "duration"))
    var since: String?

    @Option(help: "Only this status: accepted or needs_review.")
    var status: ExpenseStatus?

    func validate() throws {
        try SinceOption.validate(since, example: "30m or 24h")
        if status == .rejected {
            throw ValidationError(
                "rejected receipts are not expenses and are never exported; --status must be accepted or needs_review")
        }
        if status != nil && format.isAccounting {
            throw ValidationError("--format \(format.rawValue) exports accepted expenses only; leave out --status")
        }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            let start =
                SinceOption.start(since) ?? Date(timeIntervalSince1970: 0)
            if format.isAccounting {
                let expenses = try await context.withSession(label: "export") { session in
                    try await session.acceptedExpenses(since: start)
                }
                try writeAccounting(expenses, accounts: context.configuration.accounts)
                return
            }
            try await context.withSession(label: "export") { session in
                let rows = try await session.exportRows(committedSince: start, status: status)
                if format == .csv { print(ExpenseExport.columns.joined(separator: ",")) }
                for row in rows {
                    if format == .csv {
                        print(row.values.map(csvField).joined(separator: ","))
                    } else {
                        print(try jsonLine(row.values, items: row.itemsJSON))
                    }
                }
            }
        }
    }

    /// Writes the journal or import CSV; names each accepted expense left out, and exits 1 when there was one.
    private func writeAccounting(_ expenses: [JournalExpense], accounts: PipelineConfiguration.Accounts) throws {
        let writer = JournalWriter(accounts: accounts)
        let skipped: [JournalSkip]
        switch format {
        case .ledger, .beancount:
            let journal = writer.write(expenses, as: format == .ledger ? .ledger : .beancount)
            print(journal.text, terminator: "")
            skipped = journal.skipped
        default:
            let (entries, left) = writer.entries(expenses)
            print(ImportCSV.header)
            for entry in entries { print(ImportCSV.row(entry)) }
            skipped = left
        }
        for skip in skipped { printError("export: left out \(skip)") }
        if !skipped.isEmpty { throw ExitCode(1) }
    }

    private func jsonLine(_ values: [String?], items: String) throws -> String {
        var object: [String: Any] = [:]
        for (name, value) in zip(ExpenseExport.columns, values) { object[name] = value ?? NSNull() }
        object["items"] = try JSONSerialization.jsonObject(with: Data(items.utf8))
        let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data, as: UTF8.self)
    }
}

/// The CSV profile for Firefly III's data importer and Actual (docs/accounting.md): one row per accepted expense,
/// ISO dates, the amount negative (money out) with a decimal point, the payment method's account as the asset
/// account, the receipt id as external id.
private enum ImportCSV {
    static let header = "date,payee,amount,currency,category,account,notes,external_id"

    static func row(_ entry: JournalEntry) -> String {
        let expense = entry.expense
        let account = entry.postings.last?.account ?? ""
        return [
            entry.date, expense.merchant ?? "unknown merchant", moneyText(-entry.total), entry.currency,
            (expense.category ?? .other).rawValue, account,
            "receipt \(expense.receiptID): \(expense.file)", "receipt-\(expense.receiptID)",
        ].map(csvField).joined(separator: ",")
    }
}
