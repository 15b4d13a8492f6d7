import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A failure managing the embedded cluster, with the command's own output and what to do about it.
public struct EmbeddedClusterError: Error, Sendable, CustomStringConvertible {
    public let description: String
}

/// The private PostgreSQL cluster used when no database is configured.
///
/// Data, unix socket and log live under one folder (default `.pipeline/`); the server listens on the socket
/// only (no TCP port, written into its own configuration) and trusts local connections, which the socket
/// folder's permissions restrict to its owner. `initdb` refuses to run as root, so under root the cluster belongs
/// to the `postgres` user and every server program runs through `runuser`; when that user cannot enter the
/// project folder (root's 0700 home), the cluster lives under `/var/lib/receipt-pipeline/` and the folder is a
/// symlink to it.
public struct EmbeddedCluster: Sendable {
    /// The cluster's folder as configured (absolute); it may be a symlink to where the files are.
    public let directory: URL
    public let databaseName = "pipeline"
    /// Where clusters go when the server user cannot enter the configured folder.
    static let sharedHome = URL(fileURLWithPath: "/var/lib/receipt-pipeline")

    public init(directory: URL) { self.directory = directory.standardizedFileURL }

    /// The folder the server uses: `directory` with symlinks resolved, so its path never passes through a folder
    /// only root may enter.
    var location: URL { directory.resolvingSymlinksInPath() }
    var dataDirectory: URL { location.appendingPathComponent("data") }
    var socketDirectory: URL { location.appendingPathComponent("run") }
    var logFile: URL { location.appendingPathComponent("postgres.log") }

    /// The libpq connection string of the cluster's database.
    public var connectionString: String {
        "host=\(socketDirectory.path) port=5432 dbname=\(databaseName) user=postgres"
    }

    /// What `status()` found.
    public enum State: Sendable, Equatable {
        case notInitialized
        case stopped
        case running
    }

    /// Whether the cluster exists and its server is running.
    public func status() throws -> State {
        guard FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("PG_VERSION").path) else {
            return .notInitialized
        }
        let result = try run(tool: "pg_ctl", ["-D", dataDirectory.path, "status"])
        return result.status == 0 ? .running : .stopped
    }

    /// Initializes the cluster on first use, starts it if needed and creates the database.
    /// - Returns: true when this call started the server (false when it was already running).
    @discardableResult
    public func start() throws -> Bool {
        try relocateIfTheServerCannotEnter()
        return try withLock {
            if try status() == .notInitialized { try initialize() }
            try keepPrivate()
            let socketPath = socketDirectory.appendingPathComponent(".s.PGSQL.5432").path
            if try status() == .running {
                // A running server whose socket is gone cannot be reached: a cleaner of temporary files removed it,
                // or the server of this folder's earlier cluster, deleted while it ran, removed it on its way out
                // when it found its files gone. Restarted, it listens again.
                guard !FileManager.default.fileExists(atPath: socketPath) else { return false }
                try stopServer()
            }
            guard socketPath.utf8.count < 108 else {
                throw EmbeddedClusterError(
                    description: """
                        embedded database: the socket path \(socketPath) is longer than the 107 bytes unix sockets allow; \
                        set database.embeddedDirectory to a shorter path
                        """)
            }
            let options = "-c listen_addresses='' -c unix_socket_directories='\(socketDirectory.path)' -c port=5432"
            let result = try run(
                tool: "pg_ctl",
                [
                    "-D", dataDirectory.path, "-l", logFile.path, "-w", "-t", "60", "-o", options, "start",
                ])
            guard result.status == 0 else {
                throw EmbeddedClusterError(
                    description: """
                        embedded database: pg_ctl start failed: \(result.output)
                        see \(logFile.path) for the server's own log
                        """)
            }
            try createDatabaseIfMissing()
            return true
        }
    }

    /// Stops the server (fast shutdown: open transactions are rolled back). Stopping a stopped cluster is fine.
    /// - Returns: true when a running server was stopped.
    @discardableResult
    public func stop() throws -> Bool {
        try withLock {
            guard try status() == .running else { return false }
            try stopServer()
            return true
        }
    }

    /// `pg_ctl stop`, fast, waiting for the server to end.
    private func stopServer() throws {
        let result = try run(tool: "pg_ctl", ["-D", dataDirectory.path, "-m", "fast", "-w", "stop"])
        guard result.status == 0 else {
            throw EmbeddedClusterError(description: "embedded database: pg_ctl stop failed: \(result.output)")
        }
    }

    // MARK: - Steps

    private func initialize() throws {
        try FileManager.default.createDirectory(at: socketDirectory, withIntermediateDirectories: true)
        if let owner = try serverUser() {
            for url in [location, socketDirectory] {
                guard chown(url.path, owner.uid, owner.gid) == 0 else {
                    throw EmbeddedClusterError(
                        description: "embedded database: cannot hand \(url.path) to user postgres (errno \(errno))")
                }
            }
        }
        chmod(socketDirectory.path, 0o700)
        let result = try run(
            tool: "initdb",
            [
                "-D", dataDirectory.path, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8",
                "--no-instructions",
            ])
        guard result.status == 0 else {
            try? FileManager.default.removeItem(at: dataDirectory)
            throw EmbeddedClusterError(
                description: """
                    embedded database: initdb failed: \(result.output)
                    the user running the server must be able to enter every parent folder of \(directory.path); \
                    or set DATABASE_URL to use an existing PostgreSQL
                    """)
        }
    }

    /// Writes the private settings into the cluster's own configuration, so a server started by hand
    /// (`pg_ctl start` without our flags) still listens on the socket only: no TCP listener, no TCP trust lines.
    /// Checked at every start, which also fixes clusters created before this was done.
    private func keepPrivate() throws {
        let settings = """
            # receipt-pipeline: a private cluster, reached through the unix socket in run/ only.
            listen_addresses = ''
            unix_socket_directories = '\(socketDirectory.path)'
            port = 5432

            """
        let access = """
            # receipt-pipeline: unix-socket connections only; the socket folder (mode 0700) admits its owner alone.
            local all all trust

            """
        let configuration = dataDirectory.appendingPathComponent("postgresql.conf")
        let current = try read(configuration)
        if !current.contains(settings) { try write(current + "\n" + settings, to: configuration) }
        let accessFile = dataDirectory.appendingPathComponent("pg_hba.conf")
        if try read(accessFile) != access { try write(access, to: accessFile) }
    }

    private func read(_ url: URL) throws -> String {
        do {
            return try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw EmbeddedClusterError(description: "embedded database: cannot read \(url.path): \(error)")
        }
    }

    /// Replaces a configuration file's text in place, keeping its owner (the server user) and mode.
    private func write(_ text: String, to url: URL) throws {
        do {
            try text.write(to: url, atomically: false, encoding: .utf8)
        } catch {
            throw EmbeddedClusterError(description: "embedded database: cannot write \(url.path): \(error)")
        }
    }

    private func createDatabaseIfMissing() throws {
        let check = try run(
            tool: "psql",
            [
                "-h", socketDirectory.path, "-U", "postgres", "-d", "postgres", "-tAc",
                "SELECT 1 FROM pg_database WHERE datname = '\(databaseName)'",
            ])
        guard check.output.trimmingCharacters(in: .whitespacesAndNewlines) != "1" else { return }
        let create = try run(tool: "createdb", ["-h", socketDirectory.path, "-U", "postgres", databaseName])
        guard create.status == 0 else {
            throw EmbeddedClusterError(description: "embedded database: createdb failed: \(create.output)")
        }
    }

    // MARK: - Processes

    /// The unprivileged user the server runs as when we are root.
    private func serverUser() throws -> (uid: uid_t, gid: gid_t)? {
        guard geteuid() == 0 else { return nil }
        guard let entry = getpwnam("postgres") else {
            throw EmbeddedClusterError(
                description: """
                    embedded database: running as root, but there is no 'postgres' user to run the server as; \
                    install the postgresql package (scripts/install-dependencies) or run as an ordinary user
                    """)
        }
        return (entry.pointee.pw_uid, entry.pointee.pw_gid)
    }

    private func run(tool: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let executable = try Self.serverBinary(tool)
        let result: ChildProcess.Result
        do {
            if try serverUser() != nil {
                result = try ChildProcess.run("/usr/sbin/runuser", ["-u", "postgres", "--", executable] + arguments)
            } else {
                result = try ChildProcess.run(executable, arguments)
            }
        } catch let error as ChildProcess.LaunchError {
            throw EmbeddedClusterError(description: "embedded database: \(error)")
        }
        return (result.status, result.standardOutput + result.standardError)
    }

    /// Finds a PostgreSQL server program: the newest `/usr/lib/postgresql/*/bin`, then `PATH`.
    static func serverBinary(_ tool: String) throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let path = "\(root)/\(version)/bin/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = "\(folder)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw EmbeddedClusterError(
            description: """
                embedded database: '\(tool)' not found; install PostgreSQL (apt-get install postgresql, or \
                scripts/install-dependencies) or set DATABASE_URL to use an existing server
                """)
    }

    /// Under root, makes `directory` a symlink to a folder under `sharedHome` when the server user cannot enter
    /// the folder it is in (root's home is 0700), before anything is created there.
    private func relocateIfTheServerCannotEnter() throws {
        let isLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: directory.path)) != nil
        let exists = FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("PG_VERSION").path)
        guard try serverUser() != nil, !isLink, !exists else { return }
        let parent = directory.deletingLastPathComponent()
        guard !(try serverUserCanEnter(parent)) else { return }
        try removeLeftoversOfAFailedStart()
        let target = Self.sharedHome.appendingPathComponent(Self.folderName(for: directory.path))
        do {
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(at: directory, withDestinationURL: target)
        } catch  where (try? FileManager.default.destinationOfSymbolicLink(atPath: directory.path)) == target.path {
            return  // another process linked it first
        } catch {
            throw EmbeddedClusterError(
                description: """
                    embedded database: user postgres cannot enter \(parent.path), and linking \(directory.path) to \
                    \(target.path) failed: \(error); set database.embeddedDirectory to a folder user postgres can enter
                    """)
        }
    }

    /// Before this folder was relocated, a start that failed left the lock, an empty socket folder and a log.
    private func removeLeftoversOfAFailedStart() throws {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory.path) else { return }
        guard Set(names).isSubset(of: ["lock", "run", "postgres.log"]),
            (try? manager.contentsOfDirectory(atPath: socketDirectory.path))?.isEmpty ?? true
        else {
            throw EmbeddedClusterError(
                description: """
                    embedded database: user postgres cannot enter \(directory.deletingLastPathComponent().path) and \
                    \(directory.path) holds files this program did not make; move them away or set \
                    database.embeddedDirectory to a folder user postgres can enter
                    """)
        }
        try manager.removeItem(at: directory)
    }

    /// Whether the server user can reach `folder` (every parent searchable), asked as that user.
    private func serverUserCanEnter(_ folder: URL) throws -> Bool {
        let result = try ChildProcess.run(
            "/usr/sbin/runuser", ["-u", "postgres", "--", "/usr/bin/test", "-x", folder.path])
        return result.status == 0
    }

    /// A stable folder name for a project's cluster: FNV-1a of its configured path, in hex.
    static func folderName(for path: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    /// Serializes start/stop across processes (cron and a person starting at once).
    private func withLock<T>(_ body: () throws -> T) throws -> T {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let descriptor = open(directory.appendingPathComponent("lock").path, O_CREAT | O_RDWR, 0o600)
        guard descriptor >= 0 else {
            throw EmbeddedClusterError(description: "embedded database: cannot create \(directory.path)/lock")
        }
        defer { close(descriptor) }
        flock(descriptor, LOCK_EX)
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }
}
