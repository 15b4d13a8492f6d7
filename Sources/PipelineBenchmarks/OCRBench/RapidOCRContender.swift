import BlockingExecution
import Foundation
import PipelineCore

/// The `rapidocr` Python package (same models and settings as the PP-OCR engine) as an `ocr-bench` contender: one
/// Python process in a venv of its own, fed one image path at a time (`Resources/rapidocr_server.py`).
final class RapidOCRContender: @unchecked Sendable {
    /// The packages installed into the venv, pinned: the versions the PP-OCR engine's models and runtime come from.
    static let packages = ["rapidocr==3.10.0", "onnxruntime==1.32.0"]

    private let process: Process
    private let input: FileHandle
    private let output: LineReader
    /// Blocking pipe reads and writes happen on this thread only.
    private let thread = ThreadExecutor(name: "bench-rapidocr")

    /// Starts the Python process; it reads `warmUpImage` once before the first timed image.
    /// - Throws: `ValidationFailure` naming what failed and what to do.
    init(python: URL, warmUpImage: URL) throws {
        guard let script = Bundle.module.url(forResource: "rapidocr_server", withExtension: "py") else {
            throw ValidationFailure("rapidocr_server.py is missing from pipeline-bench's resources; rebuild it")
        }
        process = Process()
        process.executableURL = python
        process.arguments = [script.path, warmUpImage.path]
        var environment = ProcessInfo.processInfo.environment
        environment["OMP_NUM_THREADS"] = "1"
        // The package as it runs by default: not with the malloc tuning this program gives itself.
        environment["GLIBC_TUNABLES"] = nil
        process.environment = environment
        let stdin = Pipe()
        let stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        input = stdin.fileHandleForWriting
        output = LineReader(stdout.fileHandleForReading)
        do {
            try process.run()
        } catch {
            throw ValidationFailure("cannot start \(python.path): \(error)")
        }
        guard let ready = output.nextJSON(), ready["ready"] as? Bool == true else {
            throw ValidationFailure("the rapidocr process did not start (its error is above)")
        }
    }

    /// Creates a venv in `folder` with `packages` unless one with `rapidocr` is already there; returns its Python.
    /// - Throws: `ValidationFailure` with the command that failed and the remedy.
    static func prepareVenv(at folder: URL) throws -> URL {
        let python = folder.appendingPathComponent("bin/python")
        if FileManager.default.fileExists(atPath: python.path),
            (try? runQuietly(python, ["-c", "import rapidocr"])) == 0
        {
            return python
        }
        print("rapidocr: creating a venv in \(folder.path) with \(packages.joined(separator: " ")) …")
        guard try runQuietly(URL(fileURLWithPath: "/usr/bin/python3"), ["-m", "venv", folder.path]) == 0 else {
            throw ValidationFailure(
                "python3 -m venv \(folder.path) failed; install python3-venv (apt-get install python3-venv)")
        }
        let pip = folder.appendingPathComponent("bin/pip")
        guard try runQuietly(pip, ["install", "--quiet"] + packages) == 0 else {
            throw ValidationFailure(
                "pip install \(packages.joined(separator: " ")) failed in \(folder.path); PyPI must be reachable")
        }
        return python
    }

    /// Reads `images` one after another; CPU time is what the Python process reports for each image.
    func read(_ images: [URL]) async -> OCRBenchRun {
        let clock = ContinuousClock()
        let start = clock.now
        let answers: [[String: Any]?] = await withTaskExecutorPreference(thread) {
            images.map { image in
                input.write(Data((image.path + "\n").utf8))
                return output.nextJSON()
            }
        }
        let wallTime = clock.now - start
        var run = OCRBenchRun(
            processed: [], texts: [], failures: [], wallTime: wallTime, cpuTime: .zero, peakResidentMegabytes: nil)
        for (image, answer) in zip(images, answers) {
            let text = answer?["text"] as? String
            run.texts.append(text)
            run.cpuTime += .milliseconds(Int64(((answer?["cpu"] as? Double) ?? 0) * 1000))
            if text == nil {
                run.failures.append(answer?["error"] as? String ?? "\(image.lastPathComponent): no answer")
            }
        }
        return run
    }

    /// Ends the process and returns its peak resident memory in MB.
    func finish() async -> Double? {
        let peak: Double? = await withTaskExecutorPreference(thread) {
            try? input.close()
            let peak = output.nextJSON()?["peak_rss_mb"] as? Double
            process.waitUntilExit()
            return peak
        }
        thread.shutdown()
        return peak
    }

    /// Runs a command with its output discarded, returning its exit status.
    private static func runQuietly(_ executable: URL, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.standardError
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Newline-separated JSON objects from a pipe, read with blocking reads.
private final class LineReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    /// The next line parsed as a JSON object; nil at the end of the stream or for a line that is not one.
    func nextJSON() -> [String: Any]? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                return (try? JSONSerialization.jsonObject(with: line)) as? [String: Any]
            }
            let chunk = handle.availableData
            if chunk.isEmpty { return nil }
            buffer.append(chunk)
        }
    }
}
