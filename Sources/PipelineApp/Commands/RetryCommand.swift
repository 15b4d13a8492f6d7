import ArgumentParser
import PostgresStore

/// `pipeline retry`: re-queues the dead jobs of receipts.
struct RetryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry",
        abstract: "Re-queue receipts whose job is dead (their error history is kept).",
        discussion: """
            Takes receipt ids, as pipeline show, review list and every other command print them; job ids are not \
            accepted (a number would be ambiguous).

            Examples:
              pipeline retry --all
              pipeline retry 17 18
            """
    )

    @OptionGroup var options: GlobalOptions

    @Flag(help: "Re-queue every dead job.")
    var all = false

    @Argument(help: "Receipt ids to re-queue (not job ids).")
    var ids: [Int64] = []

    func validate() throws {
        guard all != !ids.isEmpty else { throw ValidationError("give receipt ids or --all (not both)") }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            let (receiptIDs, everyDeadJob) = (ids, all)
            let (count, jobs) = try await context.withSession(label: "retry") { session in
                try await session.transaction { transaction in
                    let jobs = try transaction.jobStates(ofReceipts: receiptIDs)
                    let dead = jobs.values.flatMap { $0.filter { $0.state == "dead" }.map(\.job) }
                    return (try transaction.requeueDead(everyDeadJob ? nil : dead), jobs)
                }
            }
            print("re-queued \(count) dead job\(count == 1 ? "" : "s")")
            let refused = ids.compactMap { id -> String? in
                guard let states = jobs[id] else {
                    return "error: receipt \(id) has no job (is it a receipt id? pipeline review list and "
                        + "pipeline show print them)"
                }
                guard !states.contains(where: { $0.state == "dead" }) else { return nil }
                let named = Set(states.map(\.state)).sorted().joined(separator: ", ")
                return "error: receipt \(id) is \(named), not dead; only receipts whose job is dead are re-queued"
            }
            for line in refused { printError(line) }
            if !refused.isEmpty { throw ExitCode(1) }
        }
    }
}
