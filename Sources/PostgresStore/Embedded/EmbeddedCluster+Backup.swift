import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Backup and restore of the embedded cluster's database with PostgreSQL's own tools.
extension EmbeddedCluster {
    /// Writes a consistent dump of the database to `file`: `pg_dump`'s custom format, taken in one snapshot while
    /// workers may be writing, receipt images included. Starts the server when it is stopped.
    ///
    /// The dump goes to a temporary file beside `file`, is flushed to disk, and only then renamed over `file`, so a
    /// failure at any point (a full disk, a killed `pg_dump`) leaves an earlier backup at that path as it was.
    /// - Throws: `BackupError` when the dump could not be written (`pg_dump`'s own words, or how it ended), and
    ///   `EmbeddedClusterError` when the database could not be reached.
    public func backup(to file: URL) throws {
        try start()
        let partial = file.deletingLastPathComponent().appendingPathComponent(
            ".\(file.lastPathComponent).partial-\(getpid())")
        defer { try? FileManager.default.removeItem(at: partial) }
        let dump = try runClient(
            "pg_dump", ["-h", socketDirectory.path, "-U", "postgres", "-d", databaseName, "-Fc", "-f", partial.path])
        guard dump.status == 0 else {
            let reason = BackupError.reason(status: dump.status, output: dump.output)
            if dump.output.contains("connection to server") {
                throw EmbeddedClusterError(description: "embedded database: pg_dump could not connect: \(reason)")
            }
            throw BackupError(file: file, reason: "pg_dump failed: \(reason)")
        }
        try DurableFile.flush(partial, naming: file)
        guard rename(partial.path, file.path) == 0 else {
            throw BackupError(
                file: file, reason: "cannot rename the finished dump over it: \(String(cString: strerror(errno)))")
        }
        try DurableFile.flush(file.deletingLastPathComponent(), naming: file)
    }

    /// Creates the cluster (which must not exist yet) and loads `file`, a dump `backup(to:)` wrote, in one
    /// transaction. On any failure the server is stopped and the folder emptied again, so a restore can be retried
    /// in it.
    /// - Throws: `RestoreError` when the file is no such dump or `pg_restore` fails; `EmbeddedClusterError` when the
    ///   cluster cannot be created or started.
    public func restore(from file: URL) throws {
        let listing = try runClient("pg_restore", ["-l", file.path])
        guard listing.status == 0 else {
            throw RestoreError(
                file: file,
                reason: "it is not a backup written by pipeline db backup (pg_restore: "
                    + "\(BackupError.reason(status: listing.status, output: listing.output)))")
        }
        try start()
        let load = try runClient(
            "pg_restore",
            [
                "-h", socketDirectory.path, "-U", "postgres", "-d", databaseName, "--exit-on-error",
                "--single-transaction", "--no-owner", file.path,
            ])
        guard load.status == 0 else {
            _ = try? stop()
            let created = location
            try? FileManager.default.removeItem(at: created)
            if created != directory { try? FileManager.default.removeItem(at: directory) }
            throw RestoreError(
                file: file, reason: "pg_restore failed: \(BackupError.reason(status: load.status, output: load.output))"
            )
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

/// A backup that could not be written; an earlier backup at the same path is left as it was.
public struct BackupError: Error, Sendable, CustomStringConvertible {
    public let file: URL
    public let reason: String

    public var description: String {
        "backup \(file.path) not written (\(reason)); an earlier backup at that path is unchanged. "
            + "Free space or choose another folder, then run pipeline db backup again"
    }

    /// What a failed client program said, or how it ended when it said nothing (a killed `pg_dump` prints nothing).
    static func reason(status: Int32, output: String) -> String {
        let said = output.trimmingCharacters(in: .whitespacesAndNewlines)
        if !said.isEmpty { return said }
        return status > 128 ? "ended by signal \(status - 128)" : "exited with status \(status) and printed nothing"
    }
}

/// A restore that failed; the cluster it started was stopped and its folder emptied again.
public struct RestoreError: Error, Sendable, CustomStringConvertible {
    public let file: URL
    public let reason: String

    public var description: String {
        "nothing was restored from \(file.path): \(reason); the folder is empty again, so check the file and restore "
            + "again"
    }
}

/// Flushing a written file (or a folder's entries) to disk before it replaces anything.
enum DurableFile {
    /// `fsync`s `url`, a file or a folder; `target` names the backup in the error.
    static func flush(_ url: URL, naming target: URL) throws {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else {
            throw BackupError(file: target, reason: "cannot open \(url.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw BackupError(file: target, reason: "cannot flush \(url.path): \(String(cString: strerror(errno)))")
        }
    }
}
