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
            VersionCommand.self, ReviewCommand.self, CorrectCommand.self, AcceptCommand.self, RejectCommand.self,
            CategoriesCommand.self, RecategorizeCommand.self, ReportCommand.self, ReprocessCommand.self,
        ]
    )

    public init() {}
}

extension PipelineCommand {
    /// Parses `CommandLine.arguments`, runs the command, and exits with its code.
    public static func runFromCommandLine() async {
        await runMappingUsageErrors()
    }
}

extension AsyncParsableCommand {
    /// Parses `CommandLine.arguments` with this root command, runs the command, and exits with its code. Usage
    /// errors (a bad flag, a refused value) exit 2 as SPEC §3 says, not ArgumentParser's 64; this is the one place
    /// they are mapped, for `pipeline` and `pipeline-bench` alike.
    package static func runMappingUsageErrors() async {
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

/// Debian's Tesseract uses OpenMP, which reads `OMP_THREAD_LIMIT` once when the library loads: setting it from
/// Swift is too late. When it is unset, this sets it and re-executes the program so the limit is in force
/// (NOTES.md). Call it first thing in `main`.
public func limitOpenMPThreads() {
    guard ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] == nil else { return }
    setenv("OMP_THREAD_LIMIT", "1", 1)
    execv("/proc/self/exe", CommandLine.unsafeArgv)
    // execv only returns on failure: carry on with the limit unset rather than not at all.
}
