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
            Claims jobs for free slots only, runs every stage, commits each expense with its items and timings in
            the transaction that completes the job. SIGINT/SIGTERM stop claiming and let running receipts finish
            (workers.shutdownGrace), then release the rest at once; a second signal stops immediately.

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
            let vision: (any VisionModel)?
            do {
                vision = try VisionModelFactory.makeVisionModel(
                    configuration: configuration.llm, environment: context.environment, logger: context.logger)
            } catch {
                printError("error: \(error)")
                throw ExitCode(2)
            }
            // TODO(lead): ReceiptProcessor takes a ReceiptImageReader (PPOCRImageReader.swift) once it is rewritten.
            guard configuration.ocr.engine == .tesseract else {
                printError("error: `work` runs only `ocr.engine: tesseract` in this build; `pipeline bench` runs all")
                throw ExitCode(2)
            }
            let summary = try await context.withMigratedConnection(label: "work-reader") { reader in
                let rules = try await CategoryRuleStore.load(from: reader)
                let engines = try await TesseractEnginePool.make(
                    count: configuration.workers.concurrency, options: ImageProcessingOptions(configuration))
                let processor = ReceiptProcessor(
                    engines: engines, reader: reader, reconciler: Reconciler(configuration: configuration.validation),
                    categorizer: Categorizer(rules: rules), vision: vision, logger: context.logger)
                let queue = PostgresWorkQueue(
                    target: try context.databaseTarget(quietly: true),
                    retryPolicy: RetryPolicy(base: configuration.queue.backoffBase, cap: configuration.queue.backoffCap),
                    logger: context.logger)
                let runtime = WorkerRuntime(
                    queue: queue, options: WorkerOptions(configuration: configuration, drain: drain, maxJobs: maxJobs),
                    logger: context.logger, handler: processor.handle)
                let signals = ShutdownSignals { _ in runtime.requestShutdown() }
                let summary = await runtime.run()
                signals.cancel()
                await queue.close()
                await engines.shutdown()
                return summary
            }
            print("work: \(summary.done) done, \(summary.retried) retried, \(summary.dead) dead, "
                + "\(summary.released) released (see pipeline stats)")
        }
    }
}
