import ArgumentParser
import Foundation
import PipelineApp
import PipelineCore
import ReceiptBench
import ReceiptImage
import ReceiptReading
import TesseractOCR

/// `pipeline-bench ocr-bench`: speed, memory and text quality of the image and OCR stages over labeled fixtures,
/// for each engine side by side.
struct OCRBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ocr-bench",
        abstract: "Measure decode, OCR and compress per engine over labeled receipts, beside the tesseract CLI and "
            + "the rapidocr package.",
        discussion: "For each slot count, the engines of --engines take turns on chunks of 20 receipts (with --cli "
            + "and --rapidocr, in the first slot count's run), so that other work on the machine weighs on all "
            + "alike. Prints per engine per-stage p50/p95/max, throughput, CPU s/receipt and peak RSS; CPU per "
            + "receipt relative to the first contender; and per dataset the share of receipts whose labeled total, "
            + "date and merchant appear in the OCR text.\n\n"
            + "Example: pipeline-bench ocr-bench --fixtures ../shared/fixtures/receipts --engines tesseract,ppocr "
            + "--slots 1,2 --rapidocr")

    @OptionGroup var options: GlobalOptions
    @Option(help: ArgumentHelp("Folder of receipt images with NAME.json labels.", valueName: "dir"))
    var fixtures: String
    @Option(help: ArgumentHelp("Comma-separated slot counts to measure.", valueName: "n,m"))
    var slots = "1,2"
    @Option(
        help: ArgumentHelp(
            "Comma-separated engines to measure side by side (default: ocr.engine).", valueName: "ppocr,tesseract,both"
        ))
    var engines: String?
    @Flag(help: "Also run the tesseract CLI (2 processes in parallel) on the same normalized images.")
    var cli = false
    @Flag(help: "Also run the rapidocr Python package (installed pinned into a throwaway venv) on the same images.")
    var rapidocr = false
    @Option(help: ArgumentHelp("Keep the rapidocr venv in this folder and reuse it.", valueName: "dir"))
    var rapidocrVenv: String?
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
        help: ArgumentHelp(
            "Write each fixture's OCR text per engine to this folder (ENGINE/NAME.txt), for inspection.",
            valueName: "dir"))
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
            try await bench(
                all, configuration: context.configuration, engineChoices: try engineChoices(context.configuration),
                settings: settings, slotCounts: slotCounts)
        }
    }

    /// The engines `--engines` names, or the configured one.
    private func engineChoices(_ configuration: PipelineConfiguration) throws -> [OCREngineChoice] {
        guard let engines else { return [configuration.ocr.engine] }
        let names = engines.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let choices = names.compactMap(OCREngineChoice.init(rawValue:))
        guard !choices.isEmpty, choices.count == names.count, Set(choices).count == choices.count else {
            throw ValidationError(
                "--engines takes distinct names from \(OCREngineChoice.allCases.map(\.rawValue).joined(separator: ", ")), "
                    + "e.g. tesseract,ppocr")
        }
        return choices
    }

    private func bench(
        _ fixtures: [OCRBenchFixture], configuration: PipelineConfiguration, engineChoices: [OCREngineChoice],
        settings: ImageProcessingOptions, slotCounts: [Int]
    ) async throws {
        let limit = ProcessInfo.processInfo.environment["OMP_THREAD_LIMIT"] ?? "unset"
        print(
            "OCR bench: \(fixtures.count) fixtures, engines \(engineChoices.map(\.rawValue).joined(separator: ", ")); "
                + "Tesseract psm \(settings.pageSegmentation) (second pass when no date is read: psm "
                + "\(settings.secondPassSegmentation) on lines with a digit below confidence "
                + "\(Int(settings.secondPassConfidence)), 0 = off), OCR long side \(settings.minLongSide)–"
                + "\(settings.targetLongSide) px, OMP_THREAD_LIMIT=\(limit)"
                + settings.tesseractVariables.sorted(by: { $0.key < $1.key }).map { ", \($0.key)=\($0.value)" }.joined()
                + "; PP-OCR detector long side \(configuration.ocr.ppocr.detectorLongSide) px, "
                + "\(configuration.ocr.ppocr.threads) thread(s); JPEG \(settings.compressLongSide) px q\(settings.jpegQuality)"
        )
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocr-bench-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let external = try await externalContenders(fixtures, settings: settings, folder: folder)
        var engineRuns: [(OCRBenchContender, OCRBenchRun)] = []
        var externalRuns: [(OCRBenchContender, OCRBenchRun)] = []
        for (position, count) in slotCounts.enumerated() {
            var readers: [ReceiptImageReader] = []
            var contenders: [OCRBenchContender] = []
            for choice in engineChoices {
                var engineConfiguration = configuration
                engineConfiguration.ocr.engine = choice
                let reader = try await ReceiptImageReader.make(
                    configuration: engineConfiguration, options: settings, count: count)
                readers.append(reader)
                contenders.append(
                    OCRBenchContender(name: "\(choice.rawValue), \(count) slot(s)", inProcess: true) { indexes in
                        await OCRBenchRunner.inProcess(indexes.map { fixtures[$0] }, engine: reader, slots: count)
                    })
            }
            if position == 0 { contenders += external.map(\.contender) }
            print("\nslots \(count): \(contenders.map(\.name).joined(separator: " · ")) taking turns on chunks of 20")
            let runs = await OCRBenchRunner.takingTurns(contenders, count: fixtures.count, chunkSize: 20)
            for reader in readers { await reader.shutdown() }
            var paired = Array(zip(contenders, runs))
            if position == 0 {
                for (offset, side) in external.enumerated() {
                    let index = engineChoices.count + offset
                    paired[index].1.peakResidentMegabytes = await side.finish()
                }
            }
            for (contender, run) in paired { printRun(run, of: contender) }
            printRelativeCPU(paired)
            engineRuns = Array(paired.prefix(engineChoices.count))
            if position == 0 { externalRuns = Array(paired.dropFirst(engineChoices.count)) }
        }
        printQuality(fixtures, runs: engineRuns + externalRuns)
        if let dumpText {
            for (choice, (_, run)) in zip(engineChoices, engineRuns) {
                try dump(run, fixtures, to: URL(fileURLWithPath: dumpText).appendingPathComponent(choice.rawValue))
            }
        }
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

    /// The tesseract CLI (`--cli`) and the rapidocr package (`--rapidocr`), each with what ends it.
    private func externalContenders(_ fixtures: [OCRBenchFixture], settings: ImageProcessingOptions, folder: URL)
        async throws -> [(contender: OCRBenchContender, finish: @Sendable () async -> Double?)]
    {
        var contenders: [(contender: OCRBenchContender, finish: @Sendable () async -> Double?)] = []
        if cli {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let inputs = try await OCRBenchRunner.normalizedInputs(fixtures, options: settings, folder: folder)
            let name = "tesseract CLI, 2 processes (psm \(settings.pageSegmentation), same normalized images)"
            contenders.append(
                (
                    OCRBenchContender(name: name, inProcess: false) { indexes in
                        await OCRBenchRunner.commandLine(indexes.map { inputs[$0] }, parallel: 2, options: settings)
                    }, { nil }
                ))
        }
        if rapidocr {
            let venv = rapidocrVenv.map { URL(fileURLWithPath: $0) } ?? folder.appendingPathComponent("rapidocr-venv")
            let python = try RapidOCRContender.prepareVenv(at: venv)
            let rapid = try RapidOCRContender(python: python, warmUpImage: fixtures[0].image)
            let name = "rapidocr (Python: \(RapidOCRContender.packages.joined(separator: " "))), 1 process"
            contenders.append(
                (
                    OCRBenchContender(name: name, inProcess: false) { indexes in
                        await rapid.read(indexes.map { fixtures[$0].image })
                    }, { await rapid.finish() }
                ))
        }
        return contenders
    }

    private func printRun(_ run: OCRBenchRun, of contender: OCRBenchContender) {
        let rss = run.peakResidentMegabytes.map { String(format: "%.0f MB", $0) } ?? "n/a"
        print(
            "\n\(contender.name): \(String(format: "%.2f", run.throughput)) receipts/s, wall "
                + "\(String(format: "%.1f", run.wallTime.seconds)) s, "
                + String(format: "CPU %.3f s/receipt, ", run.cpuSecondsPerReceipt)
                + "peak RSS \(rss)\(contender.inProcess ? " (this process, every engine loaded)" : ""), "
                + "\(run.failures.count) failed")
        for failure in run.failures.prefix(5) { print("  failed: \(failure)") }
        guard contender.inProcess else { return }
        let processed = run.processed.compactMap { $0 }
        print(
            OCRBenchReport.pad("stage (ms)", 12)
                + ["p50", "p95", "max"].map { OCRBenchReport.pad($0, 9, right: true) }.joined())
        print(OCRBenchReport.stageRow("decode", processed.map { $0.timings.duration(of: .decode) }))
        print(OCRBenchReport.stageRow("normalize", processed.map { $0.timings.duration(of: .normalize) }))
        print(OCRBenchReport.stageRow("ocr", processed.map { $0.timings.duration(of: .ocr) }))
        print(OCRBenchReport.stageRow("compress", processed.map { $0.timings.duration(of: .compress) }))
        print(OCRBenchReport.stageRow("all", processed.map(\.timings.total)))
        let before = processed.map(\.originalBytes).reduce(0, +)
        let after = processed.map(\.compressedBytes).reduce(0, +)
        print("bytes: \(before / 1024) KB originals → \(after / 1024) KB compressed for the LLM")
    }

    /// CPU per receipt of each contender relative to the first, measured in the same turns.
    private func printRelativeCPU(_ runs: [(OCRBenchContender, OCRBenchRun)]) {
        guard let (first, base) = runs.first, runs.count > 1, base.cpuSecondsPerReceipt > 0 else { return }
        print("\nCPU per receipt relative to \(first.name):")
        for (contender, run) in runs.dropFirst() {
            print(String(format: "  %.2f×  ", run.cpuSecondsPerReceipt / base.cpuSecondsPerReceipt) + contender.name)
        }
    }

    private func printQuality(_ fixtures: [OCRBenchFixture], runs: [(OCRBenchContender, OCRBenchRun)]) {
        print("\ntext quality: labeled field present in the OCR text")
        let header = ["n", "total", "date", "merchant", "all three"]
        print(
            OCRBenchReport.pad("dataset", 12) + header.map { OCRBenchReport.pad($0, 11, right: true) }.joined()
                + "  contender")
        for (contender, run) in runs {
            for (dataset, tally) in PresenceTally.byDataset(fixtures, run: run) {
                let cells = [
                    String(tally.fixtures), OCRBenchReport.percent(tally.totals.present, of: tally.totals.labeled),
                    OCRBenchReport.percent(tally.dates.present, of: tally.dates.labeled),
                    OCRBenchReport.percent(tally.merchants.present, of: tally.merchants.labeled),
                    OCRBenchReport.percent(tally.allPresent, of: tally.fixtures),
                ]
                print(
                    OCRBenchReport.pad(dataset, 12) + cells.map { OCRBenchReport.pad($0, 11, right: true) }.joined()
                        + "  " + contender.name)
            }
        }
    }
}
