import ArgumentParser

/// Commands whose issue has not landed yet: they say so and exit 2.
protocol PendingCommand: AsyncParsableCommand {}

extension PendingCommand {
    func run() async throws {
        printError("error: 'pipeline \(Self.configuration.commandName ?? "")' is not implemented yet")
        throw ExitCode(2)
    }
}

struct BenchCommand: PendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Score extraction against labeled fixtures.",
        discussion: "Example: pipeline bench --fixtures ../shared/fixtures/receipts")
    @OptionGroup var options: GlobalOptions
}

struct RepairCommand: PendingCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair", abstract: "Repair a model reply and print the JSON (diagnostic).",
        discussion: "Example: pipeline repair reply.txt --truncated")
    @OptionGroup var options: GlobalOptions
}
