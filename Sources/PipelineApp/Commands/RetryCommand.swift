import ArgumentParser
import PostgresStore

/// `pipeline retry`: re-queues dead jobs.
struct RetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Re-queue dead jobs (their error history is kept).",
        discussion: """
            Examples:
              pipeline retry --all
              pipeline retry 17 18
            """
    )

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Re-queue every dead job.")
    var all = false

    @Argument(help: "Job ids to re-queue.")
    var ids: [Int64] = []

    func validate() throws {
        guard all != !ids.isEmpty else { throw ValidationError("give job ids or --all (not both)") }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            let selected = all ? nil : ids
            let (count, states) = try await context.withConnection(label: "retry") { connection in
                try await connection.transaction { connection in
                    let states = try PostgresWorkQueue.states(ofJobs: selected ?? [], in: connection)
                    return (try PostgresWorkQueue.requeueDead(selected, in: connection), states)
                }
            }
            print("re-queued \(count) dead job\(count == 1 ? "" : "s")")
            let refused = (selected ?? []).compactMap { id -> String? in
                guard let state = states[id] else {
                    return "error: there is no job \(id); pipeline show RECEIPT lists a receipt's jobs"
                }
                return state == "dead" ? nil : "error: job \(id) is \(state), not dead; only dead jobs are re-queued"
            }
            for line in refused { printError(line) }
            if !refused.isEmpty { throw ExitCode(1) }
        }
    }
}
