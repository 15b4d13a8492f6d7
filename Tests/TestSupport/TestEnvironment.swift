import Foundation

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
    public static var pipelineBinary: URL { builtExecutable("pipeline") }

    /// The `pipeline-bench` executable (OCR and queue benchmarks, the no-op queue worker) built beside the tests.
    public static var benchmarksBinary: URL { builtExecutable("pipeline-bench") }

    private static func builtExecutable(_ name: String) -> URL {
        let bundleFolder = Bundle.main.bundleURL.deletingLastPathComponent()
        let candidates = [
            bundleFolder.appendingPathComponent(name),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name),
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
