import ArgumentParser
import Foundation
import Logging
import PipelineApp
import PipelineCore
import PipelineRuntime
import PostgresStore

/// `pipeline queue-worker` (hidden): a worker with a no-op handler, for the multi-process queue tests and the
/// queue benchmark. Each job sleeps `--job-time` (cancellably) and, with `--record`, inserts its id into
/// `queue_test_completions` in the transaction that completes it.
struct QueueWorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue-worker", abstract: "Run a no-op queue worker (tests and benchmarks).",
        discussion: "Example: pipeline queue-worker --drain --concurrency 100", shouldDisplay: false)

    @OptionGroup var options: GlobalOptions
    @Option(help: "Jobs at once (default: workers.concurrency).") var concurrency: Int?
    @Option(help: "Lease, e.g. 60s (default: queue.lease).") var lease: DurationArgument?
    @Option(help: "Heartbeat, e.g. 15s (default: queue.heartbeat).") var heartbeat: DurationArgument?
    @Option(help: "Poll interval, e.g. 1s (default: queue.pollInterval).") var poll: DurationArgument?
    @Option(help: "Shutdown grace, e.g. 10s (default: workers.shutdownGrace).") var grace: DurationArgument?
    @Option(help: "How long each job takes, e.g. 20ms.") var jobTime: DurationArgument = DurationArgument(.zero)
    @Flag(help: "Exit once nothing is ready or running.") var drain = false
    @Option(help: "Exit after this many jobs.") var maxJobs: Int?
    @Flag(help: "Insert each completed job id into queue_test_completions, in the completing transaction.")
    var record = false

    func validate() throws {
        if let concurrency, !(1...1000).contains(concurrency) {
            throw ValidationError("--concurrency must be between 1 and 1000 (got \(concurrency)).")
        }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            var configuration = context.configuration
            if let concurrency { configuration.workers.concurrency = concurrency }
            if let lease { configuration.queue.lease = lease.duration }
            if let heartbeat { configuration.queue.heartbeat = heartbeat.duration }
            if let poll { configuration.queue.pollInterval = poll.duration }
            if let grace { configuration.workers.shutdownGrace = grace.duration }
            try ConfigurationLoader.validate(configuration)
            let target = try context.databaseTarget()
            let queue = PostgresWorkQueue(
                target: target,
                retryPolicy: RetryPolicy(base: configuration.queue.backoffBase, cap: configuration.queue.backoffCap),
                logger: context.logger)
            let runtime = WorkerRuntime(
                queue: queue, options: WorkerOptions(configuration: configuration, drain: drain, maxJobs: maxJobs),
                logger: context.logger,
                handler: NoOpJob(duration: jobTime.duration, record: record).handle)
            let signals = await ShutdownSignals { _ in runtime.requestShutdown() }
            let summary = await runtime.run()
            signals.cancel()
            await queue.close()
            let stopped =
                summary.shutdownTime.map {
                    ", stopped \($0.formatted(.units(allowed: [.milliseconds]))) after the signal"
                } ?? ""
            print(
                "queue-worker \(runtime.workerID): claimed \(summary.claimed), done \(summary.done), retried \(summary.retried), dead \(summary.dead), released \(summary.released), lost \(summary.lost)\(stopped)"
            )
        }
    }
}

/// The no-op job of the queue tests and benchmark.
struct NoOpJob: Sendable {
    let duration: Duration
    let record: Bool

    @Sendable func handle(_ job: ClaimedJob) async throws -> PostgresJobCompletion {
        if duration > .zero { try await Task.sleep(for: duration) }
        guard record else { return .empty }
        let process = Int(ProcessInfo.processInfo.processIdentifier)
        return .recordingCompletion(of: job, process: process)
    }
}

/// A duration flag: `500ms`, `30s`, `5m`.
struct DurationArgument: ExpressibleByArgument, Sendable {
    let duration: Duration

    init(_ duration: Duration) { self.duration = duration }

    init?(argument: String) {
        guard let duration = parseDuration(argument) else { return nil }
        self.duration = duration
    }

    var defaultValueDescription: String { formatDuration(duration) }
}
