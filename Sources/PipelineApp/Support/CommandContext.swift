import ArgumentParser
import Foundation
import Logging
import PipelineCore
import PostgresStore

/// Options every command accepts.
public struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long, help: ArgumentHelp("Configuration file (default: ./pipeline.yaml if present).", valueName: "path"))
    public var config: String?

    public init() {}
}

/// What a command needs at run time, built once from the options: configuration, logger, database.
///
/// This is the composition root's entry: commands ask it for ready-made adapters instead of building them.
package struct CommandContext: Sendable {
    package let configuration: PipelineConfiguration
    package let configurationFile: URL?
    package let environment: [String: String]
    package let logger: Logger

    /// Loads the configuration (file, then environment; the command applies its flags afterwards).
    package init(options: GlobalOptions, environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let loaded = try ConfigurationLoader.load(path: options.config, environment: environment)
        self.configuration = loaded.configuration
        self.configurationFile = loaded.file
        self.environment = environment
        var logger = Logger(label: "pipeline")
        logger.logLevel = Logger.Level(rawValue: loaded.configuration.logging.level.rawValue) ?? .info
        self.logger = logger
    }

    /// A path from the configuration, resolved against the configuration file's folder (or the working folder).
    package func resolve(_ path: String) -> URL {
        if path.hasPrefix("/") { return URL(fileURLWithPath: path) }
        let base =
            configurationFile?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return base.appendingPathComponent(path).standardizedFileURL
    }

    /// The embedded cluster this configuration points at.
    package var embeddedCluster: EmbeddedCluster {
        EmbeddedCluster(directory: resolve(configuration.database.embeddedDirectory))
    }

    /// True when no database is configured, so commands use (and start) the embedded cluster.
    package var usesEmbeddedDatabase: Bool {
        configuration.database.url.isEmpty && environment["PGHOST"] == nil && environment["PGDATABASE"] == nil
            && environment["PGSERVICE"] == nil
    }

    /// Where to connect; starts the embedded cluster when it is the default, saying so in one line on stderr
    /// (unless `quietly`, for a second connection of the same command).
    package func databaseTarget(quietly: Bool = false) throws -> PostgresTarget {
        let timeout = configuration.database.connectTimeout
        guard usesEmbeddedDatabase else { return PostgresTarget(configuration.database.url, connectTimeout: timeout) }
        let cluster = embeddedCluster
        let started = try cluster.start()
        let verb = started ? "started" : "using"
        if !quietly || started {
            printError("\(verb) the embedded PostgreSQL in \(cluster.directory.path) (set DATABASE_URL to use another)")
        }
        return PostgresTarget(cluster.connectionString, connectTimeout: timeout)
    }

    /// The configured database (`databaseTarget`, which may start the embedded cluster) with its migrations.
    package func database(quietly: Bool = false) throws -> PostgresDatabase {
        database(at: try databaseTarget(quietly: quietly))
    }

    /// The database at `target`, with the configured migrations.
    package func database(at target: PostgresTarget) -> PostgresDatabase {
        PostgresDatabase(target: target, migrator: migrator, logger: logger)
    }

    /// Opens a session on the configured database (or on `database`), runs `body` with it, and closes it.
    package func withSession<T>(
        label: String, on database: PostgresDatabase? = nil, _ body: (PostgresSession) async throws -> T
    ) async throws -> T {
        try await (database ?? self.database()).session(label: label, body)
    }

    /// Like `withSession`, after applying pending migrations when `database.migrateOnStart` is set.
    package func withMigratedSession<T>(label: String, _ body: (PostgresSession) async throws -> T) async throws -> T {
        try await withSession(label: label) { session in
            if configuration.database.migrateOnStart {
                for name in try await session.migrate() { printError("applied migration \(name)") }
            }
            return try await body(session)
        }
    }

    /// The migrations compiled into the binary, or those of the folder `database.migrations` names.
    package var migrator: Migrator {
        let folder = configuration.database.migrations
        return folder.isEmpty ? .embedded : Migrator(directory: resolve(folder))
    }
}

/// Writes one line to standard output at once, not through `print`'s buffer: a process that reports while serving
/// (`pipeline serve`'s address, and its worker slots' summary when they stop) is read from a pipe or a log file, and
/// a buffered line is lost if the process is killed before it exits.
package func printNow(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Prints one line to standard error.
package func printError(_ line: String) {
    FileHandle.standardError.write(Data((line + "\n").utf8))
}

extension ExitCode {
    /// A usage or configuration error (docs/behaviour.md, "Exit codes").
    static let usageError = ExitCode(2)
    /// The database cannot be reached (docs/behaviour.md, "Exit codes").
    static let databaseUnreachable = ExitCode(3)
}

/// SQLSTATE of a missing table: the database was never migrated.
private let undefinedTable = "42P01"

/// Runs a command body, turning known failures into a plain message and the exit code docs/behaviour.md gives it:
/// 2 for usage or configuration errors, 3 when the database is unreachable.
package func runReportingErrors(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as ExitCode {
        throw error
    } catch let error as ConfigurationError {
        printError(error.description)
        throw ExitCode.usageError
    } catch let error as PostgresError where error.meansDatabaseUnreachable {
        printError("error: \(error)")
        throw ExitCode.databaseUnreachable
    } catch let error as PostgresError where error.sqlState == undefinedTable {
        printError("error: \(error); the database has no pipeline schema yet: run pipeline migrate")
        throw ExitCode.usageError
    } catch let error as EmbeddedClusterError {
        printError("error: \(error)")
        throw ExitCode.databaseUnreachable
    } catch let error as BackupError {
        printError("error: \(error)")
        throw ExitCode(1)
    } catch let error as RestoreError {
        printError("error: \(error)")
        throw ExitCode(1)
    } catch let error as MigrationError {
        printError("error: \(error)")
        throw ExitCode(1)
    } catch let error as ValidationError {
        throw error
    } catch {
        printError("error: \(error)")
        throw ExitCode(1)
    }
}
