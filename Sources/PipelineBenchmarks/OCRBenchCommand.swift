import ArgumentParser
import Foundation
import PipelineApp
import PipelineCore
import TesseractOCR

/// `pipeline ocr-bench`: speed, memory and text quality of the image and OCR stages over labeled fixtures.
struct OCRBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ocr-bench",
        abstract: "Measure decode, normalize, OCR and compress over labeled receipts, beside the tesseract CLI.",
        discussion: "Prints per-stage p50/p95/max, throughput and peak RSS for each slot count; with --cli, the "
            + "tesseract CLI (2 processes, OMP_THREAD_LIMIT=1) on the same normalized images; and per dataset the "
            + "share of receipts whose labeled total, date and merchant appear in the OCR text.\n\n"
            + "Example: pipeline ocr-bench --fixtures ../shared/fixtures/receipts --slots 1,2 --cli")

    @OptionGroup var options: GlobalOptions
    @Option(help: ArgumentHelp("Folder of receipt images with NAME.json labels.", valueName: "dir"))
    var fixtures: String
    @Option(help: ArgumentHelp("Comma-separated slot counts to measure.", valueName: "n,m"))
    var slots = "1,2"
    @Flag(help: "Also run the tesseract CLI (2 processes in parallel) on the same normalized images.")
    var cli = false
    @Option(help: ArgumentHelp("Override ocr.pageSegmentation.", valueName: "mode"))
    var psm: Int?
    @Option(help: ArgumentHelp("Override ocr.targetLongSide.", valueName: "pixels"))
    var targetLongSide: Int?
    @Option(help: ArgumentHelp("Override ocr.minLongSide.", valueName: "pixels"))
    var minLongSide: Int?
    @Option(help: ArgumentHelp("Override ocr.secondPassSegmentation (0 = no second pass).", valueName: "mode"))
    var secondPass: Int?
    @Option(help: ArgumentHelp("Override ocr.secondPassConfidence.", valueName: "0-100"))
    var secondPassConfidence: Int?
    @Option(help: ArgumentHelp("Set a Tesseract variable in every engine (repeatable).", valueName: "name=value"))
    var tesseractVariable: [String] = []
    @Option(help: ArgumentHelp("Use only the first N fixtures.", valueName: "n"))
    var limit: Int?
    @Option(
        help: ArgumentHelp("Write each fixture's OCR text to this folder (NAME.txt), for inspection.", valueName: "dir")
    )
    var dumpText: String?

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            var settings = ImageProcessingOptions(context.configuration)
            if let psm { settings.pageSegmentation = psm }
            if let targetLongSide { settings.targetLongSide = targetLongSide }
            if let minLongSide { settings.minLongSide = minLongSide }
            if let secondPass { settings.secondPassSegmentation = secondPass }
            if let secondPassConfidence { settings.secondPassConfidence = Double(secondPassConfidence) }
            for assignment in tesseractVariable {
                let parts = assignment.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { throw ValidationError("--tesseract-variable takes name=value") }
                settings.tesseractVariables[parts[0]] = parts[1]
            }
            let slotCounts = slots.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard !slotCounts.isEmpty, slotCounts.allSatisfy({ (1...16).contains($0) }) else {
                throw ValidationError("--slots takes counts from 1 to 16, e.g. 1,2")
            }
            var all = try OCRBenchFixture.load(from: URL(fileURLWithPath: fixtures))
            if let limit { all = Array(all.prefix(limit)) }
            guard !all.isEmpty else { throw ValidationError("no labeled images (NAME.jpg + NAME.json) in \(fixtures)") }
            try await bench(all, settings: settings, slotCounts: slotCounts)
        }
    }

    private func bench(_ fixtures: [OCRBenchFixture], settings: ImageProcessingOptions, slotCounts: [Int])
        async throws
    {
        let limit = ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] ?? "unset"
        print(
            "OCR bench: \(fixtures.count) fixtures, psm \(settings.pageSegmentation) (second pass when no date is read: psm "
                + "\(settings.secondPassSegmentation) on lines with a digit below confidence "
                + "\(Int(settings.secondPassConfidence)), 0 = off), OCR long side \(settings.minLongSide)–"
                + "\(settings.targetLongSide) px, JPEG \(settings.compressLongSide) px q\(settings.jpegQuality), "
                + "OMP_THREAD_LIMIT=\(limit)"
                + settings.tesseractVariables.sorted(by: { $0.key < $1.key }).map { ", \($0.key)=\($0.value)" }.joined()
        )
        var inputs: [URL?] = []
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        if cli {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            inputs = try await OCRBenchRunner.normalizedInputs(fixtures, options: settings, folder: folder)
        }
        var runs: [(Int, OCRBenchRun)] = []
        var cliRun: OCRBenchRun?
        for count in slotCounts {
            let pool = try await TesseractEnginePool.make(count: count, options: settings)
            let run: OCRBenchRun
            if cli && count == 2 && cliRun == nil {
                (run, cliRun) = await OCRBenchRunner.alternating(
                    fixtures, inputs: inputs, pool: pool, parallel: 2, chunkSize: 20, options: settings)
            } else {
                run = await OCRBenchRunner.inProcess(fixtures, pool: pool)
            }
            await pool.shutdown()
            printInProcess(run, slots: count)
            runs.append((count, run))
        }
        if cli && cliRun == nil { cliRun = await OCRBenchRunner.commandLine(inputs, parallel: 2, options: settings) }
        if let run = cliRun {
            print(
                "\ntesseract CLI, 2 processes (psm \(settings.pageSegmentation), OMP_THREAD_LIMIT=1, same normalized "
                    + "images\(slotCounts.contains(2) ? ", taking turns with the 2 slots on chunks of 20" : "")): "
                    + "\(String(format: "%.2f", run.throughput)) receipts/s, "
                    + "wall \(String(format: "%.1f", run.wallTime.seconds)) s, "
                    + String(format: "CPU %.3f s/receipt", run.cpuSecondsPerReceipt))
            if let best = runs.first(where: { $0.0 == 2 })?.1 {
                print(
                    String(
                        format: "in-process 2 slots / CLI 2-way: %.2f× throughput, %.2f× less CPU per receipt",
                        best.throughput / run.throughput, run.cpuSecondsPerReceipt / best.cpuSecondsPerReceipt))
            }
        }
        guard let last = runs.last?.1 else { return }
        printQuality(fixtures, run: last, cli: cliRun)
        if let dumpText { try dump(last, fixtures, to: URL(fileURLWithPath: dumpText)) }
    }

    private func dump(_ run: OCRBenchRun, _ fixtures: [OCRBenchFixture], to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (index, (fixture, text)) in zip(fixtures, run.texts).enumerated() {
            let name = fixture.image.deletingPathExtension().lastPathComponent + ".txt"
            let headerText = run.headerText(at: index)
            let contents = (text ?? "") + (headerText.isEmpty ? "" : "\n\n--- header pass ---\n" + headerText)
            try contents.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
    }

    private func printInProcess(_ run: OCRBenchRun, slots: Int) {
        let processed = run.processed.compactMap { $0 }
        let rss = run.peakResidentMegabytes.map { String(format: "%.0f MB", $0) } ?? "n/a"
        print(
            "\nin-process, \(slots) slot(s): \(String(format: "%.2f", run.throughput)) receipts/s, wall "
                + "\(String(format: "%.1f", run.wallTime.seconds)) s, "
                + String(format: "CPU %.3f s/receipt, ", run.cpuSecondsPerReceipt) + "peak RSS \(rss), "
                + "\(run.failures.count) failed")
        print(
            OCRBenchReport.pad("stage (ms)", 12)
                + ["p50", "p95", "max"].map { OCRBenchReport.pad($0, 9, right: true) }.joined())
        print(OCRBenchReport.stageRow("decode", processed.map { $0.timings.duration(of: .decode) }))
        print(OCRBenchReport.stageRow("normalize", processed.map { $0.timings.duration(of: .normalize) }))
        print(OCRBenchReport.stageRow("ocr", processed.map { $0.timings.duration(of: .ocr) }))
        print(OCRBenchReport.stageRow("compress", processed.map { $0.timings.duration(of: .compress) }))
        print(OCRBenchReport.stageRow("all four", processed.map(\.timings.total)))
        let before = processed.map(\.originalBytes).reduce(0, +)
        let after = processed.map(\.compressedBytes).reduce(0, +)
        print("bytes: \(before / 1024) KB originals → \(after / 1024) KB compressed for the LLM")
        for failure in run.failures.prefix(5) { print("  failed: \(failure)") }
    }

    private func printQuality(_ fixtures: [OCRBenchFixture], run: OCRBenchRun, cli: OCRBenchRun?) {
        print("\ntext quality: labeled field present in the OCR text")
        let header = ["n", "total", "date", "merchant", "all three"] + (cli == nil ? [] : ["CLI all 3"])
        print(OCRBenchReport.pad("dataset", 12) + header.map { OCRBenchReport.pad($0, 11, right: true) }.joined())
        let cliTallies = cli.map { PresenceTally.byDataset(fixtures, run: $0) }
        for (index, (dataset, tally)) in PresenceTally.byDataset(fixtures, run: run).enumerated() {
            var cells = [
                String(tally.fixtures), OCRBenchReport.percent(tally.totals.present, of: tally.totals.labeled),
                OCRBenchReport.percent(tally.dates.present, of: tally.dates.labeled),
                OCRBenchReport.percent(tally.merchants.present, of: tally.merchants.labeled),
                OCRBenchReport.percent(tally.allPresent, of: tally.fixtures),
            ]
            if let cliTally = cliTallies?[index].1 {
                cells.append(OCRBenchReport.percent(cliTally.allPresent, of: cliTally.fixtures))
            }
            print(OCRBenchReport.pad(dataset, 12) + cells.map { OCRBenchReport.pad($0, 11, right: true) }.joined())
        }
    }
}
