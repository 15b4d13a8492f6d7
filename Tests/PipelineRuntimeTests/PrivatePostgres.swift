import Foundation
import TestSupport

/// A PostgreSQL server of a test's own (initdb in a temp folder, loopback, a free port), so the test may restart
/// it without disturbing the shared test server. Runs as user `postgres` when the tests run as root.
final class PrivatePostgres: @unchecked Sendable {
    // @unchecked Sendable: immutable after init.
    let folder: URL
    let port: Int
    private let bin: URL

    init() throws {
        let binPath = ProcessInfo.processInfo.environment["PIPELINE_TEST_PG_BIN"] ?? "/usr/lib/postgresql/15/bin"
        bin = URL(fileURLWithPath: binPath)
        folder = try TestEnvironment.makeTemporaryFolder("private-pg")
        port = try freeLoopbackPort()
        if getuid() == 0 {
            try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: folder.path)
        }
        try run("initdb", ["-D", dataFolder, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"])
        try run(
            "pg_ctl",
            [
                "-D", dataFolder, "-l", folder.appendingPathComponent("server.log").path, "-w", "-o",
                "-c listen_addresses=127.0.0.1 -c port=\(port) -c unix_socket_directories=\(folder.path) -c fsync=off",
                "start",
            ])
    }

    /// The URL of a database on this server (`postgres`, the admin database, by default).
    func url(database: String = "postgres") -> String { "postgres://postgres@127.0.0.1:\(port)/\(database)" }

    /// Stops the server (fast: connections are cut) and starts it again.
    func restart() throws {
        try run("pg_ctl", ["-D", dataFolder, "-m", "fast", "-w", "restart"])
    }

    /// Restarts the server as a standby with hot standby off: it runs, but refuses every connection with SQLSTATE
    /// 57P03 ("not accepting connections") until `promote()`, as a server that is starting up or recovering does.
    func restartRefusingConnections() throws {
        try run("pg_ctl", ["-D", dataFolder, "-m", "fast", "-w", "stop"])
        try Data().write(to: URL(fileURLWithPath: dataFolder).appendingPathComponent("standby.signal"))
        try Data("hot_standby = off\n".utf8).write(
            to: URL(fileURLWithPath: dataFolder).appendingPathComponent("postgresql.auto.conf"))
        if getuid() == 0 {
            for file in ["standby.signal", "postgresql.auto.conf"] {
                try FileManager.default.setAttributes(
                    [.ownerAccountName: "postgres"], ofItemAtPath: dataFolder + "/" + file)
            }
        }
        // Not -w: a standby that refuses connections never answers pg_ctl's readiness check.
        try run(
            "pg_ctl",
            [
                "-D", dataFolder, "-l", folder.appendingPathComponent("server.log").path, "-o",
                "-c listen_addresses=127.0.0.1 -c port=\(port) -c unix_socket_directories=\(folder.path) -c fsync=off",
                "start",
            ])
    }

    /// Ends a standby's recovery: the server accepts connections again.
    func promote() throws {
        try run("pg_ctl", ["-D", dataFolder, "-w", "promote"])
    }

    /// Stops the server and removes its folder.
    func remove() {
        try? run("pg_ctl", ["-D", dataFolder, "-m", "immediate", "-w", "stop"])
        try? FileManager.default.removeItem(at: folder)
    }

    private var dataFolder: String { folder.appendingPathComponent("data").path }

    /// Runs a server tool with its output discarded, waiting for it with `waitpid`.
    ///
    /// Not Foundation's `Process`: `pg_ctl start` leaves a daemon behind, and `Process.waitUntilExit` was seen never
    /// to return for it (the exited `runuser` stayed a zombie).
    private func run(_ tool: String, _ arguments: [String]) throws {
        let executable = bin.appendingPathComponent(tool).path
        let command =
            getuid() == 0
            ? ["/usr/sbin/runuser", "-u", "postgres", "--", executable] + arguments
            : [executable] + arguments
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for descriptor: Int32 in [0, 1, 2] {
            posix_spawn_file_actions_addopen(
                &actions, descriptor, "/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY, 0)
        }
        let arguments = command.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, command[0], &actions, nil, arguments, environ)
        var status: Int32 = 0
        guard spawned == 0, waitpid(pid, &status, 0) == pid, status == 0 else {
            throw SetupFailed(
                description:
                    "\(tool) \(command.joined(separator: " ")) failed (spawn \(spawned), status \(status)); see \(folder.path)/server.log"
            )
        }
    }
}

/// A TCP port on 127.0.0.1 nobody listens on right now.
private func freeLoopbackPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
        }
    }
    guard bound else { throw SetupFailed(description: "could not find a free loopback port") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// The private server could not be set up.
struct SetupFailed: Error, CustomStringConvertible {
    let description: String
}
