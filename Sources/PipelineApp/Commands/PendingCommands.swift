import ArgumentParser

/// Commands whose issue has not landed yet: they say so and exit 2.
protocol PendingCommand: AsyncParsableCommand {}

extension PendingCommand {
    func run() async throws {
        printError("error: 'pipeline \(Self.configuration.commandName ?? "")' is not implemented yet")
        throw ExitCode(2)
    }
}

struct IngestCommand: PendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "ingest", abstract: "Store new receipt images and queue a job for each.",
        discussion: "Example: pipeline ingest ./inbox")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Files or folders (scanned recursively).") var paths: [String] = []
}

struct WorkCommand: PendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "work", abstract: "Run workers that process queued receipts until stopped.",
        discussion: "Example: pipeline work --drain")
    @OptionGroup var options: GlobalOptions
}

struct StatsCommand: PendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "Queue health, per-stage latency, outcomes, LLM usage.",
        discussion: "Example: pipeline stats --since 24h")
    @OptionGroup var options: GlobalOptions
}

struct ShowCommand: PendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show one receipt: expense, items, findings, timings, errors.",
        discussion: "Example: pipeline show 42")
    @OptionGroup var options: GlobalOptions
}

struct RetryCommand: PendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry", abstract: "Re-queue dead jobs.", discussion: "Example: pipeline retry --all")
    @OptionGroup var options: GlobalOptions
}

struct ExportCommand: PendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "export", abstract: "Export expenses and items as CSV or JSON Lines.",
        discussion: "Example: pipeline export --format csv")
    @OptionGroup var options: GlobalOptions
}

struct RepairCommand: PendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair", abstract: "Repair a model reply and print the JSON (diagnostic).",
        discussion: "Example: pipeline repair reply.txt --truncated")
    @OptionGroup var options: GlobalOptions
}
