import ArgumentParser
import Foundation
import PipelineCore
import PostgresStore
import ReceiptIntake

/// `pipeline show ID`: one receipt with its expense, items, findings, stage timings, attempts and errors.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one receipt: expense, items, findings, stage timings, attempts and errors.",
        discussion: """
            ID is the receipt id, or the start of its SHA-256 (at least 6 hex digits).
            Examples:
              pipeline show 42
              pipeline show 7f3c2a
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Receipt id or SHA-256 prefix.")
    var id: String

    func validate() throws {
        guard ReceiptReport.isReference(id) else {
            throw ValidationError(
                """
                '\(id.escapingControlCharacters)' is neither a receipt id (a whole number such as 42) nor the start \
                of an image's SHA-256 (6 or more hex digits such as 7f3c2a)
                """)
        }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            let reconciler = Reconciler(configuration: context.configuration.validation)
            let record = try await context.withSession(label: "show") { session in
                try await session.receiptRecord(matching: id, isHashPrefix: ReceiptReport.isHashPrefix(id))
            }
            guard let record else {
                printError("error: no receipt matches '\(id)'; list them with: pipeline export --format csv")
                throw ExitCode(1)
            }
            print(ReceiptReport.render(record, reconciler: reconciler))
        }
    }
}
