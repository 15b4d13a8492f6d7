import ArgumentParser
import Foundation
import PipelineCore
import PostgresStore

/// `pipeline reprocess`: queues receipts to run through every stage again on their stored image.
struct ReprocessCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reprocess",
        abstract: "Run stored receipts through the stages again (new rules, a fixed LLM key).",
        discussion: """
            Queues one job per receipt for pipeline work, which rewrites the receipt's expense: fields a person \
            corrected, and an accept or reject, stay as they were set. Each receipt gets a new LLM call budget \
            (llm.retries + 1); the OCR page kept from its first run is reused when the same ocr.engine made it. \
            A receipt with a job still queued or running is left to that job.

            --llm-failed picks exactly the receipts whose last LLM attempt failed (a refused key, a spent quota, \
            a server that kept failing); --status and --since combine.

            Examples:
              pipeline reprocess 12 15               then: pipeline work --drain
              pipeline reprocess --llm-failed        after fixing the key (see pipeline stats)
              pipeline reprocess --status needs_review --since 7d
            """
    )

    @OptionGroup var options: GlobalOptions

    @Argument(help: "Receipt ids (as in pipeline review list or pipeline show).")
    var ids: [Int64] = []

    @Option(help: "Receipts whose expense has this status.")
    var status: ExpenseStatus?

    @Option(help: ArgumentHelp("Receipts ingested in this window, e.g. 7d.", valueName: "duration"))
    var since: String?

    @Flag(help: "Receipts whose last LLM attempt failed.")
    var llmFailed = false

    func validate() throws {
        try SinceOption.validate(since, example: "30m or 7d")
        let filters = status != nil || since != nil
        guard [!ids.isEmpty, filters, llmFailed].filter({ $0 }).count == 1 else {
            throw ValidationError(
                "give receipt ids, or --status/--since, or --llm-failed (one of them), e.g. pipeline reprocess 12 15")
        }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            let start = SinceOption.start(since)
            let maxAttempts = context.configuration.queue.maxAttempts
            let (ids, llmFailed, status) = (ids, llmFailed, status)
            let (result, unknown) = try await context.withMigratedSession(label: "reprocess") { session in
                let failed = llmFailed ? try await session.llmFailedReceipts() : []
                return try await session.transaction { transaction in
                    let selected: [Int64]
                    var unknown: [Int64] = []
                    if !ids.isEmpty {
                        let known = try transaction.existingReceipts(ids)
                        selected = ids.filter(known.contains)
                        unknown = ids.filter { !known.contains($0) }
                    } else if llmFailed {
                        selected = failed
                    } else {
                        selected = try transaction.receipts(status: status, ingestedSince: start)
                    }
                    return (try transaction.enqueueReprocessing(selected, maxAttempts: maxAttempts), unknown)
                }
            }
            print(Self.summary(result))
            if !unknown.isEmpty {
                let list = unknown.map(String.init).joined(separator: ", ")
                printError(
                    "error: no receipt has id \(list); pipeline review list and pipeline export show receipt ids")
                throw ExitCode(1)
            }
        }
    }

    /// What was queued, in one or two lines.
    static func summary(_ result: Reprocessing.Queued) -> String {
        var lines: [String] = []
        if !result.queued.isEmpty {
            lines.append(
                "reprocess: \(result.queued.count) receipt(s) queued (\(listed(result.queued))) with a new LLM call "
                    + "budget; pipeline work --drain runs them, pipeline show ID shows each result")
        } else if result.alreadyQueued.isEmpty {
            lines.append("reprocess: nothing queued (no receipt matched)")
        }
        if !result.alreadyQueued.isEmpty {
            lines.append(
                "reprocess: \(result.alreadyQueued.count) receipt(s) already have a job queued or running "
                    + "(\(listed(result.alreadyQueued))); that job runs them")
        }
        return lines.joined(separator: "\n")
    }

    private static func listed(_ ids: [Int64]) -> String {
        let shown = ids.prefix(20).map(String.init).joined(separator: ", ")
        return ids.count > 20 ? shown + ", …" : shown
    }
}
