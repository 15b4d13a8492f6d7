import ArgumentParser
import Foundation
import PipelineCore
import PostgresStore

/// `pipeline stats`: queue health, per-stage latency against the target, outcomes, failures, LLM usage.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Queue health, per-stage latency, outcomes, failures and LLM usage.",
        discussion: """
            Examples:
              pipeline stats
              pipeline stats --since 24h --json
              pipeline stats --prometheus > /var/lib/node_exporter/textfile/pipeline.prom
            """
    )

    @OptionGroup var options: GlobalOptions

    @Option(
        help: ArgumentHelp(
            "Only what happened in this window, e.g. 24h or 30m (default: everything).", valueName: "duration"))
    var since: String?

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: "Print the Prometheus text exposition format.")
    var prometheus = false

    func validate() throws {
        try SinceOption.validate(since, example: "30m or 24h")
        if json && prometheus { throw ValidationError("choose one of --json and --prometheus") }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            let configuration = context.configuration
            let window = SinceOption.start(since)
            let report = try await context.withSession(label: "stats") { session in
                try await StatsReport.load(since: window, configuration: configuration, from: session)
            }
            if json {
                print(report.json())
            } else if prometheus {
                print(report.prometheus(), terminator: "")
            } else {
                print(report.text())
            }
        }
    }
}
