import ArgumentParser
import Foundation
import PipelineCore
import PostgresStore
import ReceiptIntake

/// `pipeline ingest PATH...`: stores new receipt images and queues a job for each.
struct IngestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest",
        abstract: "Store new receipt images and queue a job for each.",
        discussion: """
            Scans files and folders (recursively), skips hidden and temporary names and files still being written, \
            identifies images by their bytes, and stores each new image once (by SHA-256), with its job, in one \
            transaction per batch. A PDF of several pages is split into receipts by what its pages hold \
            (ingest.pdfPages), and the summary says how. Never modifies, moves or deletes your files. Exits 1 when \
            a file was rejected.

            Examples:
              pipeline ingest ./inbox
              pipeline ingest --dry-run --json /srv/receipts
            """
    )

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Report what would be stored without storing anything.")
    var dryRun = false

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @Argument(help: ArgumentHelp("Files or folders to scan.", valueName: "path"))
    var paths: [String]

    func validate() throws {
        guard !paths.isEmpty else {
            throw ValidationError("give at least one file or folder, e.g. pipeline ingest ./inbox")
        }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            let configuration = context.configuration
            let scan = FileScanner(settleTime: configuration.ingest.settleTime).scan(paths.map { RawPath($0) })
            let progress = ProgressLine(label: "ingested", isEnabled: !json && isatty(STDERR_FILENO) == 1)
            let pages = IngestPageReader(configuration: configuration)
            let summary: IngestSummary
            do {
                summary = try await context.withMigratedSession(label: "ingest") { session in
                    try await Ingester(configuration: configuration, pages: pages, progress: progress.update)
                        .ingest(scan, into: session.intakeStore, dryRun: dryRun)
                }
                await pages.shutdown()
            } catch let interruption as IngestInterruption {
                await pages.shutdown()
                progress.finish()
                try report(interruption.storedBeforeTheLoss)
                printError(
                    """
                    error: the database was lost after \(interruption.storedBeforeTheLoss.new.count) new image(s) \
                    were stored: \(interruption.cause); the other files were not stored. Run the same \
                    ingest again once the database is back: what is stored already is skipped as a duplicate.
                    """)
                throw ExitCode.databaseUnreachable
            }
            progress.finish()
            try report(summary)
            if !summary.rejected.isEmpty { throw ExitCode(1) }
        }
    }

    private func report(_ summary: IngestSummary) throws {
        if json {
            print(try JSONOutput.text(summary))
        } else {
            printSummary(summary)
        }
    }

    private func printSummary(_ summary: IngestSummary) {
        let verb = dryRun ? "would store" : "stored"
        print(
            "\(verb) \(summary.new.count) new, \(summary.duplicates.count) duplicate, "
                + "\(summary.rejected.count) rejected, \(summary.stillBeingWritten.count) still being written"
                + (summary.skippedHiddenOrTemporary > 0
                    ? ", \(summary.skippedHiddenOrTemporary) hidden/temporary skipped" : ""))
        for split in summary.splits { print("split: \(split)") }
        for rejection in summary.rejected { print("rejected: \(rejection.file): \(rejection.reason)") }
        for path in summary.stillBeingWritten {
            print("waiting: \(path): still being written; the next run takes it once it stops changing")
        }
    }
}
