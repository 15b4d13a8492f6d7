import Foundation
import TestSupport

/// A worker child process (`pipeline-bench queue-worker` or `pipeline work`), its output in a file.
final class WorkerProcess: @unchecked Sendable {
    // @unchecked Sendable: `process` is configured in init and only queried (thread-safe) afterwards.
    private let process = Process()
    private let outputFile: URL

    /// Starts `pipeline-bench queue-worker ARGUMENTS` against `databaseURL`, in a scratch folder (no pipeline.yaml).
    convenience init(databaseURL: String, _ arguments: [String], folder: URL) throws {
        try self.init(
            executable: TestEnvironment.benchmarksBinary, command: ["queue-worker"] + arguments,
            environment: ["DATABASE_URL": databaseURL], folder: folder)
    }

    /// Starts `executable COMMAND` (`pipeline` by default) in `folder`, with the test's environment plus
    /// `environment`.
    init(
        executable: URL = TestEnvironment.pipelineBinary, command: [String], environment overrides: [String: String],
        folder: URL
    ) throws {
        outputFile = folder.appendingPathComponent("worker-\(UUID().uuidString.prefix(8)).log")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        process.executableURL = executable
        process.arguments = command
        process.environment = ProcessInfo.processInfo.environment.merging(overrides) { $1 }
        process.currentDirectoryURL = folder
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to exit; returns its status (or the signal that killed it).
    func waitForExit(timeout: Duration = .seconds(60)) async throws -> Int32 {
        try await waitUntil("worker \(process.processIdentifier) exits", timeout: timeout) { !process.isRunning }
        return process.terminationStatus
    }

    /// True when the process exited on its own (not killed by a signal: a crash, or `kill`).
    var exitedNormally: Bool { process.terminationReason == .exit }

    /// Everything the worker printed.
    var output: String {
        (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
    }
}

/// A condition that did not come true in time.
struct TimedOut: Error, CustomStringConvertible {
    let description: String
}

/// Polls `condition` until it holds; throws `TimedOut` after `timeout`. Waits on an event, never a fixed time.
func waitUntil(
    _ what: String, timeout: Duration = .seconds(30), _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else {
            throw TimedOut(description: "timed out after \(timeout) waiting until \(what)")
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}
