import Foundation
import PipelineCore
import PostgresStore

/// Paths and processes the tests share: the repository, the shipped fixtures, the built `pipeline` binary.
public enum TestEnvironment {
    /// The repository's root folder.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The shipped real receipts (images with their `NAME.json` labels).
    public static var receiptsFolder: URL {
        Bundle.module.resourceURL!.appendingPathComponent("Receipts")
    }

    /// A shipped receipt image by file name.
    public static func receipt(_ name: String) -> URL {
        receiptsFolder.appendingPathComponent(name)
    }

    /// The `pipeline` executable built beside the test bundle.
    public static var pipelineBinary: URL {
        let bundleFolder = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [
            bundleFolder.appendingPathComponent("pipeline"),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("pipeline"),
        ]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// A fresh temporary folder, removed by the caller with `removeItem`.
    public static func makeTemporaryFolder(_ label: String = "test") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("pipeline-\(label)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The result of running a process to completion.
public struct ProcessOutput: Sendable {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
}

/// Runs the built `pipeline` with arguments and waits for it.
/// - Parameters:
///   - environment: replaces the inherited environment entirely when given.
///   - folder: working folder.
public func runPipeline(
    _ arguments: [String], environment: [String: String]? = nil, in folder: URL? = nil
) throws -> ProcessOutput {
    try runProcess(TestEnvironment.pipelineBinary, arguments, environment: environment, in: folder)
}

/// Runs any program with arguments and waits for it, capturing both streams.
public func runProcess(
    _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, in folder: URL? = nil
) throws -> ProcessOutput {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    if let folder { process.currentDirectoryURL = folder }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    try process.run()
    // Read both pipes concurrently so neither fills up and blocks the child.
    let errorData = LockedBox(Data())
    let reader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errorData.isSet { usleep(1000) }
    return ProcessOutput(
        status: process.terminationStatus,
        standardOutput: String(decoding: outputData, as: UTF8.self),
        standardError: String(decoding: errorData.value, as: UTF8.self))
}

/// A value written once from another thread.
final class LockedBox<Value>: @unchecked Sendable {
    // @unchecked Sendable: every access goes through `lock`.
    private let lock = NSLock()
    private var stored: Value
    private var wasSet = false
    init(_ value: Value) { stored = value }
    func set(_ value: Value) { lock.withLock { stored = value; wasSet = true } }
    var value: Value { lock.withLock { stored } }
    var isSet: Bool { lock.withLock { wasSet } }
}
