import ArgumentParser
import Foundation
import Logging
import PipelineCore
import PostgresStore
import ReviewServer

/// `pipeline review`: the review page, and `review list` for scripts.
struct ReviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "The review page (a local web application), or the review queue as a list.",
        discussion: """
            Examples:
              pipeline review                         serve the page on http://127.0.0.1:8080/
              pipeline review --listen 0.0.0.0:8080   any address needs a token (PIPELINE_REVIEW_TOKEN)
              pipeline review list --reason unbalanced --json
            """,
        subcommands: [Serve.self, List.self],
        defaultSubcommand: Serve.self
    )

    /// Serves the page until SIGINT or SIGTERM.
    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "serve", abstract: "Serve the review page (the default).")

        @OptionGroup var options: GlobalOptions

        @Option(
            help: ArgumentHelp("Address to listen on (default: review.listen, 127.0.0.1:8080).", valueName: "host:port")
        )
        var listen: String?

        func run() async throws {
            try await runReportingErrors {
                let context = try CommandContext(options: options)
                let setup = try ReviewPageSetup(context, listen: listen)
                try await context.withReviewPool(label: "review") { session in
                    try await setup.run(
                        try setup.makeServer(store: session.reviewStore, logger: context.logger), label: "review page",
                        context: context)
                }
            }
        }
    }

    /// Prints the queue for scripts.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list", abstract: "List receipts needing review, oldest first.")

        @OptionGroup var options: GlobalOptions

        @Option(
            help: ArgumentHelp(
                "Only one reason: \(ReviewReason.allCases.map(\.rawValue).joined(separator: ", ")).",
                valueName: "reason"))
        var reason: String?

        @Option(help: "At most this many receipts.")
        var limit = 1000

        @Flag(help: "JSON output.")
        var json = false

        func validate() throws {
            if let reason { let _: ReviewReason = try parseChoice(reason, flag: "--reason") }
            guard limit > 0 else { throw ValidationError("--limit must be at least 1 (got \(limit)).") }
        }

        func run() async throws {
            try await runReportingErrors {
                let context = try CommandContext(options: options)
                let filter: ReviewReason? = try reason.map { try parseChoice($0, flag: "--reason") }
                let queue = try await context.withReviewStore(label: "review") { store in
                    try await store.queue(ReviewQueueQuery(reason: filter, limit: limit))
                }
                if json {
                    print(try JSONOutput.text(queue.rows))
                    return
                }
                let counts = ReviewReason.allCases.map { "\($0.rawValue) \(queue.counts[$0] ?? 0)" }
                print(
                    "\(queue.total) receipt\(queue.total == 1 ? "" : "s") need review "
                        + "(\(counts.joined(separator: ", ")))"
                )
                for row in queue.rows {
                    let total = row.total.map { "\($0) \(row.currency ?? "")" } ?? "–"
                    print(
                        "\(row.receiptID)\t\(row.fileName)\t\(row.merchant ?? "–")\t\(row.date ?? "–")\t\(total)\t"
                            + row.reasons.map(\.rawValue).joined(separator: ","))
                }
            }
        }
    }
}
