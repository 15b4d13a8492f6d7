import ArgumentParser
import Foundation
import PipelineCore
import PipelineRuntime

/// `pipeline work`: runs workers over the queue until stopped, or until it is empty with `--drain`.
struct WorkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "work",
        abstract: "Run workers that process queued receipts.",
        discussion: """
            Claims jobs for free slots only, runs every stage, commits each expense with its items and timings in \
            the transaction that completes the job. SIGINT/SIGTERM stop claiming and let running receipts finish \
            (workers.shutdownGrace), then release the rest at once; a second signal stops immediately.

            Exits 1 when the LLM account failed (key refused, quota spent: one warning line, the receipts go to \
            review with their rules reading). With --drain, also exits 1 when a job of this run went dead (each is \
            listed with its receipt and reason: fix the cause, then pipeline retry); a drain stopped by a signal \
            says how many jobs are still queued.

            Examples:
              pipeline work                      run until stopped
              pipeline work --drain              process everything queued, then exit
              pipeline work --concurrency 4 --max-jobs 100
            """
    )

    @OptionGroup var options: GlobalOptions

    @Option(help: "Concurrent jobs in this process (default: workers.concurrency).")
    var concurrency: Int?

    @Flag(help: "Exit when no job is ready or running.")
    var drain = false

    @Option(help: "Exit after this many jobs.")
    var maxJobs: Int?

    func validate() throws {
        if let concurrency, !(1...64).contains(concurrency) {
            throw ValidationError("--concurrency must be between 1 and 64 (got \(concurrency)).")
        }
        if let maxJobs, maxJobs < 1 { throw ValidationError("--max-jobs must be at least 1 (got \(maxJobs)).") }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            var configuration = context.configuration
            if let concurrency { configuration.workers.concurrency = concurrency }
            let vision = try WorkerAssembly.makeVision(context, configuration)
            let outcome = try await WorkerAssembly(
                context: context, configuration: configuration, vision: vision, drain: drain, maxJobs: maxJobs
            ).run()
            let summary = outcome.summary
            print(outcome.summaryLine)
            if let stillQueued = outcome.stillQueued {
                print(
                    "work: stopped before the queue was empty: \(stillQueued) job(s) still queued "
                        + "(pipeline work --drain continues)")
            }
            // Every later receipt would fail the same way: a cron run must see it (the warning was printed once).
            let accountFailed = vision?.accountFailure != nil
            guard drain, !summary.deadJobs.isEmpty else {
                if accountFailed { throw ExitCode(1) }
                return
            }
            for dead in summary.deadJobs {
                // A pipeline failure names its receipt and file itself.
                let reason = dead.failure?.description ?? "job \(dead.job.id): no reason recorded (see pipeline show)"
                printError("dead: \(reason)")
            }
            printError("work: \(summary.deadJobs.count) job(s) went dead; fix the cause, then pipeline retry")
            throw ExitCode(1)
        }
    }
}
