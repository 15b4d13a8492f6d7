import ArgumentParser
import Foundation
import PipelineCore
import PipelineRuntime
import PostgresStore
import TesseractOCR
import VisionLLM

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
            let vision: AccountFailureWatch?
            do {
                vision = try VisionModelFactory.makeVisionModel(
                    configuration: configuration.llm, environment: context.environment, logger: context.logger
                ).map { AccountFailureWatch(watching: $0, warn: printError) }
            } catch {
                printError("error: \(error)")
                throw ExitCode(2)
            }
            let (summary, stillQueued) = try await context.withMigratedConnection(label: "work-reader") { reader in
                let engines = try await ReceiptImageReader.make(
                    configuration: configuration, count: configuration.workers.concurrency)
                let pipeline = try await ReceiptPipeline.worker(
                    configuration: configuration, ocr: engines, vision: vision, reader: reader)
                let processor = ReceiptProcessor(
                    pipeline: pipeline, source: PostgresReceiptSource(connection: reader), recorder: reader,
                    logger: context.logger)
                let queue = PostgresWorkQueue.worker(
                    configuration: configuration, target: try context.databaseTarget(quietly: true),
                    logger: context.logger)
                let runtime = WorkerRuntime(
                    queue: queue, options: WorkerOptions(configuration: configuration, drain: drain, maxJobs: maxJobs),
                    logger: context.logger, handler: processor.handle)
                let signals = ShutdownSignals { _ in runtime.requestShutdown() }
                // Returns once every handler has returned: no recognition runs on the engines any more.
                let summary = await runtime.run()
                signals.cancel()
                await queue.close()
                await engines.shutdown()
                let stoppedEarly = drain && summary.shutdownTime != nil
                return (summary, stoppedEarly ? try await PostgresWorkQueue.health(in: reader).counts[.ready] : nil)
            }
            print(
                "work: \(summary.done) done, \(summary.retried) retried, \(summary.dead) dead, "
                    + "\(summary.released) released (see pipeline stats)")
            if let stillQueued {
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
