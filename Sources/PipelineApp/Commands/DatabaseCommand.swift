import ArgumentParser
import Foundation
import PipelineCore
import PostgresStore

/// `pipeline db start|stop|status`: manages the embedded cluster.
struct DatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Manage the embedded PostgreSQL cluster (data under .pipeline/).",
        subcommands: [Start.self, Stop.self, Status.self]
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
                let (version, applied) = try await context.withConnection(label: "status", to: target) { connection in
                    let version = try await connection.serverVersion()
                    return (version ?? "?", try await Migrator.applied(in: connection))
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
}
