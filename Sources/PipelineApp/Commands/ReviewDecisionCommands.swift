import ArgumentParser
import Foundation
import PipelineCore

/// `pipeline correct ID --total 12.34 …`: corrects fields of a receipt; the machine's values stay in the audit trail.
struct CorrectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "correct",
        abstract: "Correct fields of one receipt (the machine's values are kept beside yours).",
        discussion: """
            An empty value clears an optional field. Corrected fields are never overwritten by a reprocess, and a
            corrected merchant is remembered for later receipts with the same header. Add --accept to resolve it too.
            Examples:
              pipeline correct 42 --total 12.34 --date 2024-01-31
              pipeline correct 42 --merchant "Corner Bakery" --category "Food & Dining" --accept
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

    func validate() throws {
        guard try !corrections().isEmpty || accept else {
            throw ValidationError("give at least one field to correct, e.g. --total 12.34 (see --help)")
        }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            let corrections = try corrections()
            try await context.withReviewStore(label: "correct") { store in
                try await reviewEach([id]) { id in
                    let recorded = try await store.review(
                        id, corrections: corrections, decision: accept ? .accept : nil, by: context.reviewer)
                    guard !recorded.isEmpty else { return "receipt \(id): nothing changed" }
                    return "receipt \(id): " + recorded.map(describe).joined(separator: "; ")
                }
            }
        }
    }
}

/// Records a person's decision on each receipt in turn, for `accept` and `reject`.
private func decide(_ decision: ReviewDecision, _ ids: [Int64], options: GlobalOptions) async throws {
    guard !ids.isEmpty else { throw ValidationError("give at least one receipt id (see pipeline review list)") }
    try await runReportingErrors {
        let context = try CommandContext(options: options)
        try await context.withReviewStore(label: decision.rawValue) { store in
            try await reviewEach(ids) { id in
                let recorded = try await store.review(id, corrections: [:], decision: decision, by: context.reviewer)
                let verb = decision == .accept ? "accepted" : "rejected"
                return recorded.isEmpty ? "receipt \(id): already \(verb)" : "receipt \(id): \(verb)"
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
