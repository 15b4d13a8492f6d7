import Foundation
import PipelineCore

/// A plain-text accounting format `pipeline export` writes.
public enum JournalFormat: String, Sendable, CaseIterable {
    /// Ledger's journal format, which hledger reads too.
    case ledger
    case beancount
}

/// An expense left out of a journal: which, and what to do.
public struct JournalSkip: Error, Sendable, Equatable, CustomStringConvertible {
    public let receiptID: Int64
    public let file: String
    public let reason: String

    public var description: String { "receipt \(receiptID) (\(file)): \(reason)" }
}

/// One expense as a balanced transaction: the category postings, then the payment account's (the last).
public struct JournalEntry: Sendable {
    public let expense: JournalExpense
    public let date: String
    /// Upper-case ISO 4217 code.
    public let currency: String
    public let total: Decimal
    public let postings: [Posting]

    public struct Posting: Sendable, Equatable {
        public let account: String
        public let amount: Decimal
    }
}

/// Writes accepted expenses as a Ledger/hledger journal or a Beancount file: one transaction per receipt, the
/// merchant as payee, one posting per category (or per item category), the payment method's account balancing it,
/// the currency as commodity, and the receipt id and file as metadata. Accounts come from `accounts.*`.
public struct JournalWriter: Sendable {
    public let accounts: PipelineConfiguration.Accounts

    public init(accounts: PipelineConfiguration.Accounts) {
        self.accounts = accounts
    }

    /// The journal text, and the expenses that cannot be posted (no date, total or currency code).
    public func write(_ expenses: [JournalExpense], as format: JournalFormat) -> (text: String, skipped: [JournalSkip])
    {
        let (entries, skipped) = entries(expenses)
        switch format {
        case .ledger: return (ledger(entries), skipped)
        case .beancount: return (beancount(entries), skipped)
        }
    }

    /// Each postable expense as a balanced transaction, and those that cannot be posted with what to do.
    public func entries(_ expenses: [JournalExpense]) -> (entries: [JournalEntry], skipped: [JournalSkip]) {
        var entries: [JournalEntry] = []
        var skipped: [JournalSkip] = []
        for expense in expenses {
            switch entry(for: expense) {
            case .success(let entry): entries.append(entry)
            case .failure(let skip): skipped.append(skip)
            }
        }
        return (entries, skipped)
    }

    private func entry(for expense: JournalExpense) -> Result<JournalEntry, JournalSkip> {
        func skip(_ reason: String) -> Result<JournalEntry, JournalSkip> {
            .failure(JournalSkip(receiptID: expense.receiptID, file: expense.file, reason: reason))
        }
        let id = expense.receiptID
        guard let date = expense.date, date.wholeMatch(of: /\d{4}-\d{2}-\d{2}/) != nil else {
            return skip("no date; set it with pipeline correct \(id) --date YYYY-MM-DD")
        }
        guard let total = expense.total else {
            return skip("no total; set it with pipeline correct \(id) --total AMOUNT")
        }
        guard let currency = expense.currency?.uppercased(), CurrencyCodes.contains(currency) else {
            return skip(
                "no currency code (read \"\(expense.currency ?? "")\"); set it with pipeline correct \(id) "
                    + "--currency EUR")
        }
        let receiptAccount = account(forCategory: (expense.category ?? .other).rawValue)
        var lines: [JournalEntry.Posting] = []
        func add(_ account: String, _ amount: Decimal) {
            if let index = lines.firstIndex(where: { $0.account == account }) {
                lines[index] = .init(account: account, amount: lines[index].amount + amount)
            } else {
                lines.append(.init(account: account, amount: amount))
            }
        }
        if accounts.itemPostings && !expense.items.isEmpty {
            for item in expense.items { add(account(forCategory: item.category.rawValue), item.amount) }
            // Tax, fees and discounts: what the items do not account for goes to the receipt's category.
            let rest = total - expense.items.reduce(Decimal(0)) { $0 + $1.amount }
            if rest != 0 { add(receiptAccount, rest) }
        } else {
            add(receiptAccount, total)
        }
        lines.removeAll { $0.amount == 0 }
        let payment = accounts.payments[expense.paymentMethod?.rawValue ?? "unknown"] ?? accounts.payments["unknown"]
        lines.append(.init(account: payment ?? "Assets:Unknown", amount: -total))
        return .success(JournalEntry(expense: expense, date: date, currency: currency, total: total, postings: lines))
    }

    private func account(forCategory name: String) -> String {
        accounts.categories[name] ?? accounts.categories[ExpenseCategory.other.rawValue] ?? "Expenses:Other"
    }

    private func ledger(_ transactions: [JournalEntry]) -> String {
        var out = "; Accepted expenses exported by pipeline export --format ledger\n\n"
        for name in Set(transactions.flatMap { $0.postings.map(\.account) }).sorted() { out += "account \(name)\n" }
        for currency in Set(transactions.map(\.currency)).sorted() { out += "commodity \(currency)\n" }
        for transaction in transactions {
            let expense = transaction.expense
            // `;` starts a comment and `|` splits payee from note in hledger: keep them out of the description.
            let payee = Self.oneLine(expense.merchant ?? "unknown merchant")
                .replacingOccurrences(of: ";", with: ",").replacingOccurrences(of: "|", with: "/")
            out += "\n\(transaction.date) \(payee)\n"
            out += "    ; receipt: \(expense.receiptID)\n    ; file: \(Self.oneLine(expense.file))\n"
            for posting in transaction.postings {
                out += "    \(posting.account)  \(moneyText(posting.amount)) \(transaction.currency)\n"
            }
        }
        return out
    }

    private func beancount(_ transactions: [JournalEntry]) -> String {
        var out = "; Accepted expenses exported by pipeline export --format beancount\n\n"
        let firstUse = Dictionary(
            transactions.flatMap { transaction in transaction.postings.map { ($0.account, transaction.date) } },
            uniquingKeysWith: min)
        for (name, date) in firstUse.sorted(by: { $0.key < $1.key }) { out += "\(date) open \(name)\n" }
        for currency in Set(transactions.map(\.currency)).sorted() {
            out += "\(transactions.map(\.date).min() ?? "1970-01-01") commodity \(currency)\n"
        }
        for transaction in transactions {
            let expense = transaction.expense
            out += "\n\(transaction.date) * \(Self.quoted(expense.merchant ?? "unknown merchant")) \"\"\n"
            out += "  receipt: \(expense.receiptID)\n  file: \(Self.quoted(expense.file))\n"
            for posting in transaction.postings {
                out += "  \(posting.account)  \(moneyText(posting.amount)) \(transaction.currency)\n"
            }
        }
        return out
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }

    /// A Beancount string: one line, backslash and double quote escaped.
    private static func quoted(_ text: String) -> String {
        "\"" + oneLine(text).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            + "\""
    }
}
