import ArgumentParser
import Foundation
import PipelineCore

/// `pipeline correct ID --total 12.34 …`: corrects fields of a receipt; the machine's values stay in the audit trail.
struct CorrectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "correct",
        abstract: "Correct fields and line items of one receipt (the machine's values are kept beside yours).",
        discussion: """
            An empty value clears an optional field. Corrected fields and items are never overwritten by a \
            reprocess, and a corrected merchant is remembered for later receipts with the same header. Add --accept \
            to resolve it too. Items are numbered as pipeline show ID prints them, before this command's changes.
            Examples:
              pipeline correct 42 --total 12.34 --date 2024-01-31
              pipeline correct 42 --merchant "Corner Bakery" --category "Food & Dining" --accept
              pipeline correct 42 --item 3 --amount 4.50 --quantity 2
              pipeline correct 42 --remove-item 5 --add-item "Milk 2L=3.99"
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Receipt id (as in pipeline review list).")
    var id: Int64

    @Option var merchant: String?
    @Option(help: ArgumentHelp("YYYY-MM-DD.", valueName: "date")) var date: String?
    @Option(help: ArgumentHelp("ISO 4217 code, e.g. USD.", valueName: "code")) var currency: String?
    @Option var subtotal: String?
    @Option var discounts: String?
    @Option var fees: String?
    @Option var tax: String?
    @Option var tip: String?
    @Option var total: String?
    @Option(help: ArgumentHelp("An expense category, e.g. Groceries.", valueName: "name")) var category: String?
    @Option(help: "cash, card, mobile or voucher.") var paymentMethod: String?

    @Option(help: ArgumentHelp("The item to change with --name, --quantity, --amount.", valueName: "number"))
    var item: Int?
    @Option(help: ArgumentHelp("The item's new name.", valueName: "text")) var name: String?
    @Option(help: ArgumentHelp("The item's quantity (empty for none).", valueName: "number")) var quantity: String?
    @Option(help: ArgumentHelp("The item's line total, e.g. 4.50.", valueName: "amount")) var amount: String?
    @Option(help: ArgumentHelp("Delete an item the machine invented (repeatable).", valueName: "number"))
    var removeItem: [Int] = []
    @Option(help: ArgumentHelp("Add an item the machine missed (repeatable).", valueName: "NAME=AMOUNT"))
    var addItem: [String] = []

    @Flag(help: "Also accept the receipt (it leaves the review queue).")
    var accept = false

    /// The typed values by field, checked by the one rule for each field.
    func corrections() throws -> [CorrectableField: String?] {
        let given: [(CorrectableField, String?)] = [
            (.merchant, merchant), (.date, date), (.currency, currency), (.subtotal, subtotal),
            (.discounts, discounts), (.fees, fees), (.tax, tax), (.tip, tip), (.total, total), (.category, category),
            (.paymentMethod, paymentMethod),
        ]
        var corrections: [CorrectableField: String?] = [:]
        for case (let field, let value?) in given {
            do {
                corrections[field] = .some(try FieldValue.normalize(value, for: field))
            } catch {
                throw ValidationError(error.message)
            }
        }
        return corrections
    }

    /// The line item edits, each value checked by the one rule for items.
    func itemEdits() throws -> [ItemEdit] {
        do {
            var edits: [ItemEdit] = []
            if let item {
                let input = ItemInput(receiptID: id, position: item)
                guard name != nil || quantity != nil || amount != nil else {
                    throw ValidationError("--item \(item) needs what to change: --name, --quantity or --amount")
                }
                edits.append(
                    .change(
                        position: item, name: try name.map(input.name), quantity: try quantity.map(input.quantity),
                        amount: try amount.map(input.amount)))
            } else if name != nil || quantity != nil || amount != nil {
                throw ValidationError(
                    "--name, --quantity and --amount change one item: say which with --item N (as pipeline show "
                        + "\(id) numbers them)")
            }
            edits += removeItem.map { .remove(position: $0) }
            edits += try addItem.map { try ItemInput(receiptID: id, position: nil).addition($0) }
            return edits
        } catch let error as ReviewError {
            throw ValidationError(error.message)
        }
    }

    func validate() throws {
        guard try !corrections().isEmpty || !itemEdits().isEmpty || accept else {
            throw ValidationError("give at least one field to correct, e.g. --total 12.34 (see --help)")
        }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            let corrections = try corrections()
            let items = try itemEdits()
            let reconciler = Reconciler(configuration: context.configuration.validation)
            try await context.withReviewStore(label: "correct") { store in
                try await reviewEach([id]) { id in
                    let outcome = try await store.review(
                        id, corrections: corrections, items: items, decision: accept ? .accept : nil,
                        by: context.reviewer)
                    guard !outcome.corrections.isEmpty else { return "receipt \(id): nothing changed" }
                    var report = "receipt \(id): " + outcome.corrections.map(describe).joined(separator: "; ")
                    if let detail = try await store.receipt(id), detail.hasCorrectedAmounts {
                        report += "\n" + describeChecks(detail.recheck(with: reconciler))
                    }
                    return report + rereadingReport(outcome)
                }
            }
        }
    }
}

/// The line telling the person which waiting receipts their confirmation queued to be read again, and what reads
/// them ("1 receipt waiting for review that read like it is queued to be read again (13): …"); empty when none.
private func rereadingReport(_ outcome: ReviewOutcome) -> String {
    let ids = outcome.rereading
    guard !ids.isEmpty else { return "" }
    let receipts =
        ids.count == 1
        ? "1 receipt waiting for review that read like it is"
        : "\(ids.count) receipts waiting for review that read like it are"
    return "\n  \(receipts) queued to be read again (\(ids.map(String.init).joined(separator: ", "))): "
        + "pipeline serve's workers read them at once, else the next pipeline work --drain"
}

/// Records a person's decision on each receipt in turn, for `accept` and `reject`.
private func decide(_ decision: ReviewDecision, _ ids: [Int64], options: GlobalOptions) async throws {
    guard !ids.isEmpty else { throw ValidationError("give at least one receipt id (see pipeline review list)") }
    try await runReportingErrors {
        let context = try CommandContext(options: options)
        try await context.withReviewStore(label: decision.rawValue) { store in
            try await reviewEach(ids) { id in
                if decision == .accept, let earlier = try await store.receipt(id)?.possibleDuplicateOf {
                    printError(
                        "warning: receipt \(id) may repeat receipt \(earlier) (\(ReviewReason.duplicateGrounds)); "
                            + "accepted, both now count in reports: if it is a copy, pipeline reject \(id)")
                }
                let outcome = try await store.review(id, corrections: [:], decision: decision, by: context.reviewer)
                let verb = decision == .accept ? "accepted" : "rejected"
                return outcome.corrections.isEmpty
                    ? "receipt \(id): already \(verb)" : "receipt \(id): \(verb)" + rereadingReport(outcome)
            }
        }
    }
}

/// `pipeline accept ID…`: the receipts are right as they are.
struct AcceptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept",
        abstract: "Accept receipts as they are (they leave the review queue).",
        discussion: "Example:\n  pipeline accept 42 43")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Receipt ids (as in pipeline review list).") var ids: [Int64] = []

    func run() async throws {
        try await decide(.accept, ids, options: options)
    }
}

/// `pipeline reject ID…`: the receipts are not expenses.
struct RejectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reject",
        abstract: "Reject receipts: not an expense (kept, but out of the queue and the reports).",
        discussion: "Example:\n  pipeline reject 44")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Receipt ids (as in pipeline review list).") var ids: [Int64] = []

    func run() async throws {
        try await decide(.reject, ids, options: options)
    }
}
