import Foundation

/// Backup and restore of the embedded cluster's database with PostgreSQL's own tools.
extension EmbeddedCluster {
    /// Writes a consistent dump of the database to `file`: `pg_dump`'s custom format, taken in one snapshot while
    /// workers may be writing, receipt images included. Starts the server when it is stopped.
    /// - Throws: `EmbeddedClusterError` with `pg_dump`'s own words.
    public func backup(to file: URL) throws {
        try start()
        let dump = try runClient(
            "pg_dump", ["-h", socketDirectory.path, "-U", "postgres", "-d", databaseName, "-Fc", "-f", file.path])
        guard dump.status == 0 else {
            try? FileManager.default.removeItem(at: file)
            throw EmbeddedClusterError(description: "embedded database: pg_dump failed: \(dump.output)")
        }
    }

    /// Creates the cluster (which must not exist yet) and loads `file`, a dump `backup(to:)` wrote, in one
    /// transaction: on any error the database is left empty and the message names it.
    /// - Throws: `EmbeddedClusterError` when the file is no such dump or `pg_restore` fails.
    public func restore(from file: URL) throws {
        let listing = try runClient("pg_restore", ["-l", file.path])
        guard listing.status == 0 else {
            throw EmbeddedClusterError(
                description: """
                    embedded database: \(file.path) is not a backup written by pipeline db backup (pg_restore: \
                    \(listing.output.trimmingCharacters(in: .whitespacesAndNewlines)))
                    """)
        }
        try start()
        let load = try runClient(
            "pg_restore",
            [
                "-h", socketDirectory.path, "-U", "postgres", "-d", databaseName, "--exit-on-error",
                "--single-transaction", "--no-owner", file.path,
            ])
        guard load.status == 0 else {
            throw EmbeddedClusterError(
                description: """
                    embedded database: pg_restore failed, nothing was loaded: \(load.output)
                    stop the cluster (pipeline db stop), remove \(directory.path) and restore again
                    """)
        }
    }

    /// Whether the folder holds nothing yet (or does not exist): where a restore may create a cluster.
    public var folderIsEmpty: Bool {
        ((try? FileManager.default.contentsOfDirectory(atPath: location.path)) ?? []).isEmpty
    }

    /// Runs a client program (`pg_dump`, `pg_restore`) as this user: it reaches the server through the socket
    /// folder, and reads and writes files where this user can.
    private func runClient(_ tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        do {
            let result = try ChildProcess.run(try Self.serverBinary(tool), arguments)
            return (result.status, result.standardOutput + result.standardError)
        } catch let error as ChildProcess.LaunchError {
            throw EmbeddedClusterError(description: "embedded database: \(error)")
        }
    }
}
