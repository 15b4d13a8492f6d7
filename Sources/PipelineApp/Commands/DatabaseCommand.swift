import ArgumentParser
import Foundation
import PipelineCore
import PostgresStore

/// `pipeline db start|stop|status|backup|restore`: manages the embedded cluster.
struct DatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Manage the embedded PostgreSQL cluster (data under .pipeline/).",
        subcommands: [Start.self, Stop.self, Status.self, Backup.self, Restore.self]
    )

    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Initialize (first time) and start the embedded cluster.",
            discussion: "Example: pipeline db start")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await runReportingErrors {
                let cluster = try CommandContext(options: options).embeddedCluster
                let started = try cluster.start()
                print(
                    started
                        ? "started the embedded PostgreSQL in \(cluster.directory.path)"
                        : "the embedded PostgreSQL in \(cluster.directory.path) is already running")
            }
        }
    }

    struct Stop: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Stop the embedded cluster (its data stays).", discussion: "Example: pipeline db stop")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await runReportingErrors {
                let cluster = try CommandContext(options: options).embeddedCluster
                let stopped = try cluster.stop()
                print(
                    stopped
                        ? "stopped the embedded PostgreSQL in \(cluster.directory.path)"
                        : "the embedded PostgreSQL in \(cluster.directory.path) is not running")
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show whether the database is reachable and its schema current.",
            discussion: "Exits 3 when the database cannot be reached. Example: pipeline db status")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            try await runReportingErrors {
                let context = try CommandContext(options: options)
                let target: PostgresTarget
                if context.usesEmbeddedDatabase {
                    let cluster = context.embeddedCluster
                    let state = try cluster.status()
                    print("embedded cluster: \(cluster.directory.path): \(describe(state))")
                    guard state == .running else { throw ExitCode(3) }
                    target = PostgresTarget(
                        cluster.connectionString, connectTimeout: context.configuration.database.connectTimeout)
                } else {
                    target = try context.databaseTarget()
                }
                let database = context.database(at: target)
                let (version, applied) = try await context.withSession(label: "status", on: database) { session in
                    (try await session.serverVersion() ?? "?", try await session.appliedMigrations())
                }
                print("database: \(target) (PostgreSQL \(version))")
                let known = try context.migrator.migrations().map(\.name)
                let pending = known.filter { !applied.contains($0) }
                print(
                    "schema: \(applied.count) migration\(applied.count == 1 ? "" : "s") applied, \(pending.count) pending"
                        + (pending.isEmpty ? "" : " (run: pipeline migrate)"))
            }
        }

        private func describe(_ state: EmbeddedCluster.State) -> String {
            switch state {
            case .running: return "running"
            case .stopped: return "stopped (start it with: pipeline db start)"
            case .notInitialized: return "not created yet (pipeline db start creates it)"
            }
        }
    }

    struct Backup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a consistent backup of the embedded database (receipt images included) to a file.",
            discussion: """
                One pg_dump snapshot, safe while workers run. For a database of your own (DATABASE_URL), use \
                pg_dump -Fc itself (see the README). Example: pipeline db backup receipts-2024-06-01.backup
                """)
        @OptionGroup var options: GlobalOptions
        @Argument(help: ArgumentHelp("The backup file to write.", valueName: "file")) var file: String

        func run() async throws {
            try await runReportingErrors {
                let context = try CommandContext(options: options)
                let cluster = try DatabaseCommand.embeddedCluster(of: context, for: "backup")
                guard try cluster.status() != .notInitialized else {
                    printError("error: there is no embedded database in \(cluster.directory.path) to back up")
                    throw ExitCode.usageError
                }
                let url = URL(fileURLWithPath: file)
                try cluster.backup(to: url)
                print("backed up the embedded database in \(cluster.directory.path) to \(url.path)")
            }
        }
    }

    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create the embedded database from a backup, in an empty folder.",
            discussion: """
                Never writes over a database: database.embeddedDirectory must be empty or absent. \
                Example: pipeline db restore receipts-2024-06-01.backup
                """)
        @OptionGroup var options: GlobalOptions
        @Argument(help: ArgumentHelp("A file pipeline db backup wrote.", valueName: "file")) var file: String

        func run() async throws {
            try await runReportingErrors {
                let context = try CommandContext(options: options)
                let cluster = try DatabaseCommand.embeddedCluster(of: context, for: "restore")
                guard cluster.folderIsEmpty else {
                    printError(
                        "error: pipeline db restore creates a new database in an empty folder, and "
                            + "\(cluster.directory.path) is not empty; restore in another folder (or set "
                            + "database.embeddedDirectory), or move that one away first")
                    throw ExitCode.usageError
                }
                let url = URL(fileURLWithPath: file)
                guard FileManager.default.isReadableFile(atPath: url.path) else {
                    printError("error: cannot read the backup \(url.path)")
                    throw ExitCode.usageError
                }
                try cluster.restore(from: url)
                print("restored \(url.path) into the embedded database in \(cluster.directory.path)")
            }
        }
    }

    /// The embedded cluster, for backup and restore; a database of the operator's own is backed up with pg_dump.
    fileprivate static func embeddedCluster(of context: CommandContext, for verb: String) throws -> EmbeddedCluster {
        guard context.usesEmbeddedDatabase else {
            printError(
                "error: pipeline db \(verb) works on the embedded database, and DATABASE_URL (or PG*) names another; "
                    + "use pg_dump -Fc / pg_restore on it (see the README)")
            throw ExitCode.usageError
        }
        return context.embeddedCluster
    }
}
