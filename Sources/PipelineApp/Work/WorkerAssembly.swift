import ArgumentParser
import Foundation
import Logging
import PipelineCore
import PipelineRuntime
import PostgresStore
import ReceiptReading
import Synchronization
import VisionLLM

/// Worker slots over the queue, put together: OCR engines, the receipt pipeline, the processor and the runtime.
/// `pipeline work`, `pipeline serve --workers N` and `pipeline-bench replay` run the same assembly.
struct WorkerAssembly {
    let context: CommandContext
    /// The configuration with the command's flags applied (`workers.concurrency` is the number of slots).
    let configuration: PipelineConfiguration
    let vision: AccountFailureWatch?
    var drain = false
    var maxJobs: Int?
    /// Lets the caller stop the slots as SIGINT/SIGTERM does (serve stops them when its page stops).
    var stopper = WorkerStopper()
    /// Whether `drain` draws a progress line on a terminal; false for the replay, which drains once per receipt.
    var showsProgress = true
    /// Whether SIGINT/SIGTERM stop the slots; false when the caller handles the signals (one handler per process).
    var handlesSignals = true
    /// The OCR stage to use instead of starting the configured engines (the replay's cached pages); the caller
    /// shuts it down.
    var ocr: (any OCREngine)?
    /// Whether the pipeline reads what people taught (merchant names, a merchant's category); false only for the
    /// replay's measurement of what learning is worth.
    var learns = true

    /// What one run did, and with `drain` stopped by a signal, how many jobs were still queued.
    struct Outcome {
        let summary: WorkerRunSummary
        let stillQueued: Int?

        /// `work: 3 done, 0 retried, 0 dead, 0 released (see pipeline stats)`.
        var summaryLine: String {
            "work: \(summary.done) done, \(summary.retried) retried, \(summary.dead) dead, "
                + "\(summary.released) released (see pipeline stats)"
        }
    }

    /// The vision model the configuration names, watched for account failures; nil without an LLM.
    /// - Throws: `ExitCode(2)` after printing why the LLM settings are unusable.
    static func makeVision(_ context: CommandContext, _ configuration: PipelineConfiguration) throws
        -> AccountFailureWatch?
    {
        do {
            return try VisionModelFactory.makeVisionModel(
                configuration: configuration.llm, environment: context.environment, logger: context.logger
            ).map { AccountFailureWatch(watching: $0, warn: printError) }
        } catch {
            printError("error: \(error)")
            throw ExitCode(2)
        }
    }

    /// What each committed batch reports: with `drain`, progress over the jobs queued at the start (finished =
    /// done or dead; failures = retried or dead attempts); otherwise (serve, work) one log line per batch.
    private func batchObserver(_ reader: PostgresSession, progress: ProgressLine?) async throws
        -> WorkerRuntime<PostgresWorkQueue>.BatchObserver
    {
        let logger = context.logger
        guard let progress else {
            return { batch, run in
                logger.info(
                    """
                    batch: \(batch.done) done, \(batch.retried) retried, \(batch.dead) dead; this run: \(run.done) done, \
                    \(run.retried) retried, \(run.dead) dead
                    """)
            }
        }
        let counts = try await reader.queueHealth().counts
        let queued = (counts[.ready] ?? 0) + (counts[.running] ?? 0)
        return { _, run in
            let finished = run.done + run.dead
            progress.update(finished, max(queued, finished), failures: run.retried + run.dead)
        }
    }

    /// Runs the slots until SIGINT/SIGTERM (or, with `drain`, until no job is ready or running).
    /// - Parameter onEnginesLoaded: called once the OCR engines are up (for `/readyz`).
    func run(onEnginesLoaded: @Sendable () async -> Void = {}) async throws -> Outcome {
        try await context.withMigratedSession(label: "work-reader") { reader in
            let rules = try await reader.categoryRules()
            let engines: ReceiptImageReader?
            let stage: any OCREngine
            if let ocr {
                (engines, stage) = (nil, ocr)
            } else {
                let made = try await ReceiptImageReader.make(
                    configuration: configuration, count: configuration.workers.concurrency)
                (engines, stage) = (made, made)
            }
            await onEnginesLoaded()
            let pipeline = PipelineFactory.makePipeline(
                configuration: configuration, ocr: stage, vision: vision, categoryRules: rules,
                learnedMerchants: learns ? reader.learnedMerchants : nil,
                categoryHistory: learns ? reader.categoryHistory : nil)
            let processor = ReceiptProcessor(
                pipeline: pipeline, source: reader.receiptSource, attempts: reader.attempts,
                logger: context.logger)
            let queue = PostgresWorkQueue(
                target: try context.databaseTarget(quietly: true),
                retryPolicy: RetryPolicy(
                    base: configuration.queue.backoffBase, cap: configuration.queue.backoffCap,
                    maxAttempts: configuration.queue.maxAttempts),
                logger: context.logger)
            // With `drain`, a progress line on a terminal (silent otherwise).
            let progress =
                drain ? ProgressLine(label: "work", isEnabled: showsProgress && isatty(STDERR_FILENO) == 1) : nil
            let runtime = WorkerRuntime(
                queue: queue, options: WorkerOptions(configuration: configuration, drain: drain, maxJobs: maxJobs),
                logger: context.logger, onBatch: try await batchObserver(reader, progress: progress),
                handler: processor.handle)
            let signals = handlesSignals ? await ShutdownSignals { _ in runtime.requestShutdown() } : nil
            stopper.attach { runtime.requestShutdown() }
            // Returns once every handler has returned: no recognition runs on the engines any more.
            let summary = await runtime.run()
            progress?.finish()
            signals?.cancel()
            await queue.close()
            await engines?.shutdown()
            let stoppedEarly = drain && summary.shutdownTime != nil
            return Outcome(
                summary: summary,
                stillQueued: stoppedEarly ? try await reader.queueHealth().counts[.ready] : nil)
        }
    }
}

/// Stops worker slots from outside their signal handler; a stop asked for before the slots start applies at once.
final class WorkerStopper: Sendable {
    private let state = Mutex<(stop: (@Sendable () -> Void)?, requested: Bool)>((nil, false))

    /// Called by the assembly once the runtime exists.
    func attach(_ stop: @escaping @Sendable () -> Void) {
        let requested = state.withLock { state in
            state.stop = stop
            return state.requested
        }
        if requested { stop() }
    }

    /// Stop claiming and let running receipts finish, as SIGTERM does.
    func requestStop() {
        let stop = state.withLock { state in
            state.requested = true
            return state.stop
        }
        stop?()
    }
}
