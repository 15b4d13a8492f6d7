import ArgumentParser
import PostgresStore

/// `pipeline migrate`: applies pending migrations.
struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply migrations/*.sql in order, each once, each in a transaction.",
        discussion: "Example: pipeline migrate --config /etc/pipeline.yaml"
    )

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            let applied = try await context.withSession(label: "migrate") { try await $0.migrate() }
            if applied.isEmpty {
                print("schema is up to date: no migration to apply")
            } else {
                for name in applied { print("applied \(name)") }
                print("applied \(applied.count) migration\(applied.count == 1 ? "" : "s")")
            }
        }
    }
}
