import Foundation

/// A long-running child process (a server) whose output goes to a file the test can read while it runs.
public final class BackgroundProcess: @unchecked Sendable {
    // @unchecked Sendable: `process` is configured in init and only queried (thread-safe) or signalled afterwards.
    private let process = Process()
    private let outputFile: URL

    /// Starts `executable ARGUMENTS` with `environment`, its stdout and stderr in a file under `folder`.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String], folder: URL) throws {
        outputFile = folder.appendingPathComponent("\(executable.lastPathComponent)-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = folder
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// Everything the process printed so far.
    public var output: String {
        (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
    }

    public var isRunning: Bool { process.isRunning }

    /// Asks the process to stop (SIGTERM) and waits up to `timeout` for it; then kills it, noting so at the end of
    /// its output. The wait is what the service units give a stop (`TimeoutStopSec=60`, packaging/deb/systemd): a
    /// test checks that a stop is clean, not how fast it is on a loaded machine.
    public func stop(timeout: Duration = .seconds(60)) async {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        if let log = try? FileHandle(forWritingTo: outputFile) {
            _ = try? log.seekToEnd()
            try? log.write(contentsOf: Data("[test: still running \(timeout) after SIGTERM; killed]\n".utf8))
            try? log.close()
        }
    }

    /// Waits until the output matches `pattern` and returns the first match's first capture.
    /// - Throws: when the process exits first or `timeout` passes, quoting its output.
    public func waitForOutput(_ pattern: Regex<(Substring, Substring)>, timeout: Duration = .seconds(30)) async throws
        -> String
    {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let match = output.firstMatch(of: pattern) { return String(match.1) }
            guard process.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw CocoaError(
            .executableLoad, userInfo: [NSLocalizedDescriptionKey: "no expected output; it printed: \(output)"])
    }
}
