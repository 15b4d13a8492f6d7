import ArgumentParser
import Foundation
import Logging
import PipelineApp
import PipelineCore
import PipelineRuntime
import PostgresStore
import Synchronization

/// `pipeline queue-bench`: measures the work queue on the configured database (its `jobs` table is emptied).
///
/// Enqueue single and batched, drain with 1 and 2 `queue-worker` processes, pickup latency at a steady rate.
/// `scripts/bench-queue` runs it beside PgQueuer on a throwaway server at both `synchronous_commit` settings.
struct QueueBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue-bench", abstract: "Benchmark the work queue (empties the jobs table).",
        discussion: "Example: DATABASE_URL=postgres://127.0.0.1:5433/bench pipeline queue-bench --yes")

    @OptionGroup var options: GlobalOptions
    @Option(help: "Jobs per enqueue and drain run.") var jobs = 50_000
    @Option(help: "Jobs in the single (one per statement) enqueue run (default: --jobs).") var singleJobs: Int?
    @Option(help: "Jobs per statement in the batched enqueue.") var batchSize = 1000
    @Option(help: "Slots per drain worker process.") var concurrency = 500
    @Option(help: "Jobs per second in the latency run.") var rate = 50
    @Option(help: "Seconds the latency run lasts.") var seconds = 20
    @Flag(help: "Confirm that the database's jobs table may be emptied.") var yes = false

    func validate() throws {
        guard yes else { throw ValidationError("queue-bench empties the jobs table: pass --yes to confirm.") }
        guard jobs > 0, batchSize > 0, concurrency > 0, rate > 0, seconds > 0 else {
            throw ValidationError("--jobs, --batch-size, --concurrency, --rate and --seconds must be positive.")
        }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            var logger = context.logger
            logger.logLevel = .warning
            try await context.withSession(label: "queue-bench") { session in
                _ = try await session.migrate()
                let benchmark = QueueBenchmark(
                    session: session, logger: logger, jobs: jobs, batchSize: batchSize, concurrency: concurrency)
                try await benchmark.printSettings()
                try await benchmark.enqueueSingle(singleJobs ?? jobs)
                try await benchmark.enqueueBatched()
                try await benchmark.drain(processes: 1)
                try await benchmark.drain(processes: 2)
                try await benchmark.pickupLatency(rate: rate, seconds: seconds)
                try await benchmark.reset()
            }
        }
    }
}

/// The measurements of `queue-bench`, each printing one row.
struct QueueBenchmark {
    let session: PostgresSession
    let logger: Logger
    let jobs: Int
    let batchSize: Int
    let concurrency: Int

    /// The database again, for the latency run's producer connection, logging as quietly as the bench.
    private var producers: PostgresDatabase {
        PostgresDatabase(target: session.database.target, migrator: session.database.migrator, logger: logger)
    }

    func printSettings() async throws {
        let version = try await session.serverVersion() ?? "?"
        let durability = try await session.synchronousCommit() ?? "?"
        print(
            "pipeline queue  PostgreSQL \(version)  synchronous_commit=\(durability)  cores=\(ProcessInfo.processInfo.activeProcessorCount)  jobs=\(jobs)  batch=\(batchSize)  drain concurrency=\(concurrency)/process"
        )
    }

    func reset() async throws {
        try await session.emptyJobs()
    }

    func enqueueSingle(_ count: Int) async throws {
        try await reset()
        let elapsed = try await ContinuousClock().measure {
            for index in 0..<count {
                try await session.enqueue([NewJob(key: "single-\(index)")])
            }
        }
        report("enqueue single (1/statement)", count: count, elapsed: elapsed)
    }

    func enqueueBatched() async throws {
        try await reset()
        try await enqueueBacklog(prefix: "batched")
    }

    private func enqueueBacklog(prefix: String, quiet: Bool = false) async throws {
        let elapsed = try await ContinuousClock().measure {
            for start in stride(from: 0, to: jobs, by: batchSize) {
                let batch = (start..<min(start + batchSize, jobs)).map { NewJob(key: "\(prefix)-\($0)") }
                try await session.enqueue(batch)
            }
        }
        if !quiet { report("enqueue batched (\(batchSize)/statement)", count: jobs, elapsed: elapsed) }
    }

    /// Drains a backlog of `jobs` with worker processes; the time runs from their start to the last exit.
    func drain(processes: Int) async throws {
        try await reset()
        try await enqueueBacklog(prefix: "drain", quiet: true)
        try await session.analyzeJobs()
        var environment = ProcessInfo.processInfo.environment
        environment["DATABASE_URL"] = session.database.target.connectionString
        environment["PIPELINE_LOGGING_LEVEL"] = "warning"
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        let clock = ContinuousClock()
        let started = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<processes {
                let process = Process()
                process.executableURL = executable
                process.arguments = ["queue-worker", "--drain", "--concurrency", "\(concurrency)", "--poll", "20ms"]
                process.environment = environment
                process.standardOutput = FileHandle.nullDevice
                group.addTask { try await runToExit(process) }
            }
            try await group.waitForAll()
        }
        let elapsed = clock.now - started
        let done = try await session.doneJobCount()
        let note = done == jobs ? "" : "  (only \(done ?? 0) done!)"
        report("drain, \(processes) process\(processes == 1 ? "" : "es")", count: jobs, elapsed: elapsed, note: note)
    }

    /// Enqueues single jobs at a steady rate and measures enqueue call → handler start, in one process.
    func pickupLatency(rate: Int, seconds: Int) async throws {
        try await reset()
        let total = rate * seconds
        let clock = ContinuousClock()
        let enqueuedAt = Mutex([String: ContinuousClock.Instant]())
        let latencies = Mutex([Duration]())
        let queue = PostgresWorkQueue(
            target: session.database.target, retryPolicy: RetryPolicy(base: .seconds(1), cap: .seconds(60)),
            label: "bench",
            logger: logger)
        let options = WorkerOptions(
            concurrency: 10, lease: .seconds(30), heartbeat: .seconds(10), pollInterval: .seconds(1),
            shutdownGrace: .seconds(5), retention: .seconds(86_400), maxJobs: total)
        let runtime = WorkerRuntime(queue: queue, options: options, logger: logger) { job in
            let now = clock.now
            if let key = job.key, let start = enqueuedAt.withLock({ $0[key] }) {
                latencies.withLock { $0.append(now - start) }
            }
            return .empty
        }
        let worker = Task { await runtime.run() }
        try await producers.session(label: "bench-producer") { producer in
            try await Task.sleep(for: .milliseconds(300))
            let interval = Duration.seconds(1) / rate
            let begin = clock.now
            for index in 0..<total {
                try await Task.sleep(until: begin + interval * index, clock: clock)
                let key = "latency-\(index)"
                enqueuedAt.withLock { $0[key] = clock.now }
                try await producer.enqueue([NewJob(key: key)])
            }
            _ = await worker.value
        }
        await queue.close()
        let sorted = latencies.withLock { $0 }.sorted()
        func percentile(_ fraction: Double) -> String {
            guard !sorted.isEmpty else { return "-" }
            let index = min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
            return String(format: "%.2f ms", sorted[index].fractionalMilliseconds)
        }
        print(
            pad("pickup latency \(rate)/s × \(seconds) s")
                + "p50 \(percentile(0.5))  p95 \(percentile(0.95))  p99 \(percentile(0.99))  max \(percentile(1))  (n=\(sorted.count))"
        )
    }

    private func report(_ label: String, count: Int, elapsed: Duration, note: String = "") {
        let secondsTaken = elapsed.seconds
        print(
            pad(label)
                + String(
                    format: "%6d jobs in %7.3f s = %9.0f jobs/s", count, secondsTaken, Double(count) / secondsTaken)
                + note)
    }

    private func pad(_ label: String) -> String {
        label.padding(toLength: 34, withPad: " ", startingAt: 0)
    }

}

/// Starts a process and returns when it exited, without blocking a thread while it runs.
private func runToExit(_ process: Process) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        process.terminationHandler = { _ in continuation.resume() }
        do {
            try process.run()
        } catch {
            process.terminationHandler = nil
            continuation.resume(throwing: error)
        }
    }
}
