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

            With no database configured, commands use an embedded PostgreSQL under .pipeline/. \
            Exit codes: 0 success, 1 some inputs failed, 2 usage or configuration error, 3 database unreachable.
            """,
        subcommands: [
            IngestCommand.self, WorkCommand.self, StatsCommand.self, BenchCommand.self, MigrateCommand.self,
            DatabaseCommand.self, ShowCommand.self, RetryCommand.self, ExportCommand.self, RepairCommand.self,
            VersionCommand.self, ReviewCommand.self, ServeCommand.self, CorrectCommand.self, AcceptCommand.self,
            RejectCommand.self,
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
    /// errors (a bad flag, a refused value) exit 2 (docs/behaviour.md), not ArgumentParser's 64; this is the one place
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

/// Sets what only takes effect when a process starts, then re-executes the program so that it is in force. Call it
/// first thing in `main`.
/// - `OMP_THREAD_LIMIT=1`: Debian's Tesseract uses OpenMP, which reads it once when the library loads (docs/behaviour.md).
/// - `GLIBC_TUNABLES=glibc.malloc.hugetlb=1`: malloc asks for transparent huge pages, so PP-OCR's large tensors fault
///   in 2 MB pages instead of 4 KB ones (measured: minor page faults −85%, CPU per receipt −6%; docs/ocr-engines.md).
///
/// A variable the operator has set is left as it is; when nothing needs setting, nothing is re-executed.
public func prepareProcessEnvironment() {
    let environment = ProcessInfo.processInfo.environment
    let settings = [("OMP_THREAD_LIMIT", "1"), ("GLIBC_TUNABLES", "glibc.malloc.hugetlb=1")]
    let missing = settings.filter { environment[$0.0] == nil }
    guard !missing.isEmpty else { return }
    for (name, value) in missing { setenv(name, value, 1) }
    execv("/proc/self/exe", CommandLine.unsafeArgv)
    // execv only returns on failure: carry on without the settings rather than not at all.
}
