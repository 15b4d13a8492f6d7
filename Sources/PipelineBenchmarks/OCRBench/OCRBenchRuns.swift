import BlockingExecution
import Foundation
import PipelineApp
import PipelineCore
import ReceiptBench
import ReceiptImage
import TesseractOCR

/// The outcome of running every fixture once through the in-process engines or the CLI.
struct OCRBenchRun {
    /// Per fixture: the processed image (in-process runs only), the text, or the error.
    var processed: [ProcessedImage?]
    var texts: [String?]
    /// Per fixture, in-process runs only: the header pass's text (empty when it did not run), which the merchant
    /// rules read besides `texts`.
    var headerTexts: [String?] = []
    var failures: [String]
    var wallTime: Duration
    /// User + system CPU time the run used (this process's threads, or the CLI child processes).
    var cpuTime: Duration
    var peakResidentMegabytes: Double?

    /// The header pass's text of fixture `index`; empty for the CLI, a failed image or a page it did not run on.
    func headerText(at index: Int) -> String {
        headerTexts.indices.contains(index) ? headerTexts[index] ?? "" : ""
    }

    var throughput: Double { Double(texts.count) / (wallTime.seconds) }
    /// CPU seconds per receipt: unlike throughput, barely moved by other work on the machine.
    var cpuSecondsPerReceipt: Double { cpuTime.seconds / Double(max(texts.count, 1)) }

    /// This run followed by `next` (on the following fixtures): results joined, times added, the higher peak.
    func followed(by next: OCRBenchRun) -> OCRBenchRun {
        let peaks = [peakResidentMegabytes, next.peakResidentMegabytes].compactMap { $0 }
        return OCRBenchRun(
            processed: processed + next.processed, texts: texts + next.texts,
            headerTexts: headerTexts + next.headerTexts,
            failures: failures + next.failures,
            wallTime: wallTime + next.wallTime, cpuTime: cpuTime + next.cpuTime, peakResidentMegabytes: peaks.max())
    }
}

/// Hands out fixture indexes to concurrent workers.
actor OCRBenchCursor {
    private var next = 0
    private let count: Int
    init(count: Int) { self.count = count }

    func take() -> Int? {
        guard next < count else { return nil }
        defer { next += 1 }
        return next
    }
}

/// One side of an OCR benchmark: an in-process engine, the tesseract CLI or the rapidocr package.
struct OCRBenchContender: Sendable {
    let name: String
    /// Whether its memory is this process's (in-process engines), so a peak RSS and a stage table belong to it.
    let inProcess: Bool
    /// Reads the fixtures with these indexes.
    let read: @Sendable ([Int]) async -> OCRBenchRun
}

enum OCRBenchRunner {
    /// The contenders take turns on chunks of `chunkSize` of the `count` fixtures, each turn starting with the next
    /// one (A B C, B C A, C A B …), so that other work on the machine, which comes and goes, weighs on all alike.
    /// Returns each contender's run over all fixtures, in the contenders' order.
    static func takingTurns(_ contenders: [OCRBenchContender], count: Int, chunkSize: Int) async -> [OCRBenchRun] {
        let empty = OCRBenchRun(
            processed: [], texts: [], failures: [], wallTime: .zero, cpuTime: .zero, peakResidentMegabytes: nil)
        var runs = Array(repeating: empty, count: contenders.count)
        for (turn, start) in stride(from: 0, to: count, by: chunkSize).enumerated() {
            let chunk = Array(start..<min(start + chunkSize, count))
            for step in contenders.indices {
                let index = (turn + step) % contenders.count
                runs[index] = runs[index].followed(by: await contenders[index].read(chunk))
            }
        }
        return runs
    }

    /// Runs every fixture through `engine` with `slots` concurrent jobs.
    static func inProcess(_ fixtures: [OCRBenchFixture], engine: any OCREngine, slots: Int) async -> OCRBenchRun {
        OCRBenchReport.resetPeakResident()
        let cursor = OCRBenchCursor(count: fixtures.count)
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = OCRBenchReport.cpuTime(.ownThreads)
        let results = await withTaskGroup(of: [(Int, Result<ProcessedImage, any Error>)].self) { group in
            for slot in 1...slots {
                group.addTask {
                    // File reads block: this worker's own code runs on a thread of its own.
                    let reader = ThreadExecutor(name: "bench-reader-\(slot)")
                    defer { reader.shutdown() }
                    return await withTaskExecutorPreference(reader) {
                        var results: [(Int, Result<ProcessedImage, any Error>)] = []
                        while let index = await cursor.take() {
                            let fixture = fixtures[index]
                            do {
                                let bytes = try Data(contentsOf: fixture.image)
                                let processed = try await engine.process(bytes, file: fixture.image.lastPathComponent)
                                results.append((index, .success(processed)))
                            } catch {
                                results.append((index, .failure(error)))
                            }
                        }
                        return results
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let wallTime = clock.now - start
        let cpuTime = OCRBenchReport.cpuTime(.ownThreads) - cpuStart
        var run = OCRBenchRun(
            processed: Array(repeating: nil, count: fixtures.count),
            texts: Array(repeating: nil, count: fixtures.count),
            headerTexts: Array(repeating: nil, count: fixtures.count),
            failures: [], wallTime: wallTime, cpuTime: cpuTime,
            peakResidentMegabytes: OCRBenchReport.peakResidentMegabytes())
        for (index, result) in results.sorted(by: { $0.0 < $1.0 }) {
            switch result {
            case .success(let processed):
                run.processed[index] = processed
                run.texts[index] = processed.page.text
                run.headerTexts[index] = processed.page.headerLines.map(\.text).joined(separator: "\n")
            case .failure(let error):
                run.failures.append("\(error)")
            }
        }
        return run
    }

    /// Writes the exact gray page each fixture's OCR reads, as PNG files in `folder` (nil for a failed image).
    static func normalizedInputs(_ fixtures: [OCRBenchFixture], options: ImageProcessingOptions, folder: URL)
        async throws -> [URL?]
    {
        let engine = try await TesseractEngine.make(options: options, name: "bench-prepare")
        let writer = ThreadExecutor(name: "bench-writer")
        defer { writer.shutdown() }
        var inputs: [URL?] = []
        for (index, fixture) in fixtures.enumerated() {
            let url = folder.appendingPathComponent(String(format: "%04d.png", index))
            let written: URL? = await withTaskExecutorPreference(writer) {
                guard let bytes = try? Data(contentsOf: fixture.image),
                    let png = try? await engine.normalizedPNG(bytes, file: fixture.image.lastPathComponent),
                    (try? png.write(to: url)) != nil
                else { return nil }
                return url
            }
            inputs.append(written)
        }
        await engine.shutdown()
        return inputs
    }

    /// Runs the `tesseract` CLI on each input, `parallel` processes at a time, with `OMP_THREAD_LIMIT=1`.
    static func commandLine(_ inputs: [URL?], parallel: Int, options: ImageProcessingOptions) async -> OCRBenchRun {
        let cursor = OCRBenchCursor(count: inputs.count)
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = OCRBenchReport.cpuTime(.finishedChildren)
        let results = await withTaskGroup(of: [(Int, String?)].self) { group in
            for slot in 1...parallel {
                group.addTask {
                    // Waiting for a child process blocks: each worker waits on a thread of its own.
                    let waiter = ThreadExecutor(name: "bench-cli-\(slot)")
                    defer { waiter.shutdown() }
                    return await withTaskExecutorPreference(waiter) {
                        var results: [(Int, String?)] = []
                        while let index = await cursor.take() {
                            results.append((index, inputs[index].flatMap { tesseract($0, options: options) }))
                        }
                        return results
                    }
                }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        let wallTime = clock.now - start
        let cpuTime = OCRBenchReport.cpuTime(.finishedChildren) - cpuStart
        var texts = [String?](repeating: nil, count: inputs.count)
        for (index, text) in results { texts[index] = text }
        return OCRBenchRun(
            processed: [], texts: texts,
            failures: texts.indices.filter { texts[$0] == nil }.map { inputs[$0]?.lastPathComponent ?? "#\($0)" },
            wallTime: wallTime, cpuTime: cpuTime, peakResidentMegabytes: nil)
    }

    /// One `tesseract IMAGE stdout --psm N -l LANG` run; nil when it fails. Blocks until the process exits.
    private static func tesseract(_ image: URL, options: ImageProcessingOptions) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/tesseract")
        process.arguments = [
            image.path, "stdout", "--psm", String(options.pageSegmentation), "-l", options.language,
            "--tessdata-dir", options.tessdata,
        ]
        var environment = ProcessInfo.processInfo.environment
        environment["OMP_THREAD_LIMIT"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? String(decoding: data, as: UTF8.self) : nil
    }
}
