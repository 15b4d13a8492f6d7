import ArgumentParser
import Foundation

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
              pipeline review                  correct and accept receipts on a local web page

            With no database configured, commands use an embedded PostgreSQL under .pipeline/.
            Exit codes: 0 success, 1 some inputs failed, 2 usage or configuration error, 3 database unreachable.
            """,
        subcommands: [
            IngestCommand.self, WorkCommand.self, StatsCommand.self, BenchCommand.self, MigrateCommand.self,
            DatabaseCommand.self, ShowCommand.self, RetryCommand.self, ExportCommand.self, RepairCommand.self,
            OCRBenchCommand.self, QueueBenchCommand.self, QueueWorkerCommand.self, VersionCommand.self,
            ReviewCommand.self,
            CorrectCommand.self,
            AcceptCommand.self,
            RejectCommand.self,
            CategoriesCommand.self,
            RecategorizeCommand.self,
            ReportCommand.self,
        ]
    )

    public init() {}
}

extension PipelineCommand {
    /// Parses `CommandLine.arguments`, runs the command, and exits with its code. Usage errors (a bad flag, a
    /// refused value) exit 2 as SPEC §3 says, not ArgumentParser's 64; this is the one place they are mapped.
    public static func runFromCommandLine() async {
        do {
            var command = try await asyncParseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(ExitCode.usageError.rawValue)
        }
    }
}
