import ArgumentParser

/// The `pipeline` command line.
public struct PipelineCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "pipeline",
        abstract: "Turn receipt images into validated expenses in PostgreSQL.",
        discussion: """
            Typical use:
              pipeline ingest ./inbox          store new images and queue them
              pipeline work --drain            process everything queued, then exit
              pipeline stats                   queue health and per-stage latency

            With no database configured, commands use an embedded PostgreSQL under .pipeline/.
            Exit codes: 0 success, 1 some inputs failed, 2 usage or configuration error, 3 database unreachable.
            """,
        subcommands: [
            IngestCommand.self, WorkCommand.self, StatsCommand.self, BenchCommand.self, MigrateCommand.self,
            DatabaseCommand.self, ShowCommand.self, RetryCommand.self, ExportCommand.self, RepairCommand.self,
            OCRBenchCommand.self, QueueBenchCommand.self, QueueWorkerCommand.self, VersionCommand.self,
            ExtractionFeaturesCommand.self,
        ]
    )

    public init() {}
}

extension PipelineCommand {
    /// Parses `CommandLine.arguments`, runs the command, and exits with its code.
    public static func runFromCommandLine() async {
        await main()
    }
}
