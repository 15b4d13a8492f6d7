import ArgumentParser

/// `pipeline-bench`: the benchmarks of the OCR engines and the work queue, the no-op queue worker they (and the queue
/// tests) run, and the extraction-feature dump `scripts/fit-extraction` reads. Kept out of `pipeline`, which holds
/// what users run; `pipeline bench` (accuracy) stays there.
struct BenchmarksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pipeline-bench",
        abstract: "Benchmarks of the OCR engines and the work queue (see docs/benchmarks.md).",
        subcommands: [
            OCRBenchCommand.self, QueueBenchCommand.self, QueueWorkerCommand.self, ExtractionFeaturesCommand.self,
            CategoryFeaturesCommand.self,
            ReplayCommand.self,
        ]
    )
}
