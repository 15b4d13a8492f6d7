import ArgumentParser
import Foundation
import PipelineCore
import PostgresStore
import ReceiptBench
import ReceiptImage
import ReceiptReading
import VisionLLM

/// `pipeline bench`: scores extraction against labeled fixtures (docs/behaviour.md) and gates on `targets.*`.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench", abstract: "Score extraction against labeled fixtures.",
        discussion: """
            Runs the worker's stages (decode → OCR → extract → LLM when configured → reconcile → categorize) on \
            every image with a NAME.json label beside it, prints per-field and per-dataset accuracy and latency \
            percentiles, and exits 1 when a target in pipeline.yaml (targets.*) is missed. Categories come from the \
            rules a new database is seeded with (the bench uses no database) and the fitted model; with category \
            labels (docs/categories.md) it reports category accuracy and the share of Other per dataset.

            Example: pipeline bench --fixtures ../shared/fixtures/receipts --report-dir bench-report
            """)

    @OptionGroup var options: GlobalOptions
    @Option(help: ArgumentHelp("Folder of labeled images (searched recursively).", valueName: "dir"))
    var fixtures: String
    @Option(help: ArgumentHelp("Write bench.json and bench.html here.", valueName: "dir"))
    var reportDir: String?
    @Option(help: ArgumentHelp("Write one prediction per receipt here, in the fixture label schema.", valueName: "dir"))
    var predictions: String?
    @Option(
        help: ArgumentHelp(
            "Read OCR pages from here (NAME.jpg.json per image); images without one are OCR'd and their page stored.",
            valueName: "dir"))
    var ocrCache: String?
    @Option(
        help: ArgumentHelp(
            "Hand-written category labels of the fixtures (TSV, docs/categories.md); skipped when the default is absent.",
            valueName: "file"))
    var categoryLabels = Self.defaultCategoryLabels
    @Option(help: "Receipts processed at once (default: the number of cores).")
    var concurrency: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        guard (1...64).contains(concurrency) else {
            throw ValidationError("--concurrency must be between 1 and 64 (got \(concurrency)).")
        }
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            let configuration = context.configuration
            let fixtureFolder = URL(fileURLWithPath: fixtures)
            let loaded: [BenchFixture]
            let pipeline: ReceiptPipeline
            let categories: CategoryLabels?
            do {
                loaded = try BenchFixture.load(from: fixtureFolder)
                categories = try loadCategoryLabels()
                let vision = try VisionModelFactory.makeVisionModel(
                    configuration: configuration.llm, environment: context.environment, logger: context.logger)
                if vision != nil && ocrCache != nil {
                    throw BenchError(
                        message: "--ocr-cache keeps no images, which the vision LLM needs; run without it, or with "
                            + "llm.provider: none")
                }
                pipeline = PipelineFactory.makePipeline(
                    configuration: configuration,
                    ocr: try await makeOCR(
                        fixtures: loaded, fixtureFolder: fixtureFolder, configuration: configuration),
                    vision: vision, categoryRules: try SeededCategoryRules.rules)
            } catch let error as BenchError {
                // A wrong folder, label or flag combination is a usage problem (exit 2), not a failed receipt.
                printError("error: \(error)")
                throw ExitCode(2)
            } catch let error as VisionModelError {
                printError("error: \(error)")
                throw ExitCode(2)
            }
            let outcomes = await BenchRunner(pipeline: pipeline, concurrency: concurrency, categories: categories)
                .run(loaded)
            for error in outcomes.compactMap(\.error) { printError("warning: \(error)") }
            let summary = BenchSummary(
                receipts: outcomes.map(\.score), maxSilentPer100: configuration.acceptance.maxSilentPer100)
            print(BenchTextReport.render(summary))
            if ocrCache != nil {
                print(
                    "note: with --ocr-cache, latency of cached receipts covers reading the page and the stages after OCR only"
                )
            }
            if let reportDir {
                try writeReports(
                    summary, to: URL(fileURLWithPath: reportDir), fixtures: loaded,
                    options: ImageProcessingOptions(configuration))
            }
            if let predictions { try writePredictions(outcomes, to: URL(fileURLWithPath: predictions)) }
            let missed = summary.missedTargets(configuration.targets)
            for line in missed { printError("target missed: \(line)") }
            if !missed.isEmpty { throw ExitCode(1) }
        }
    }

    /// The OCR stage: the engine `ocr.engine` names, behind the page cache when `--ocr-cache` is given (engines
    /// start only when some page is not cached).
    func makeOCR(fixtures: [BenchFixture], fixtureFolder: URL, configuration: PipelineConfiguration) async throws
        -> any OCREngine
    {
        guard let ocrCache else {
            return try await ReceiptImageReader.make(configuration: configuration, count: concurrency)
        }
        let cache = OCRPageCache(directory: URL(fileURLWithPath: ocrCache), fixtureFolder: fixtureFolder)
        let engines =
            fixtures.allSatisfy { cache.contains($0.image) }
            ? nil : try await ReceiptImageReader.make(configuration: configuration, count: concurrency)
        let images = Dictionary(
            uniqueKeysWithValues: fixtures.enumerated().map { index, fixture in
                (StoredReceipt.displayName(id: Int64(index + 1), originalName: fixture.name), fixture.image)
            })
        return CachedOCREngine(cache: cache, images: images, engine: engines, readsWith: configuration.ocr.engine)
    }

    /// The project's category labels, read from the folder the bench runs in.
    static let defaultCategoryLabels = "bench/category-labels.tsv"

    /// The category labels, or nil when the default file is absent (another folder, another fixture set).
    func loadCategoryLabels() throws -> CategoryLabels? {
        guard let data = FileManager.default.contents(atPath: categoryLabels) else {
            if categoryLabels == Self.defaultCategoryLabels { return nil }
            throw BenchError(message: "cannot read --category-labels \(categoryLabels); pass the labels TSV file")
        }
        do {
            return try CategoryLabels(parsing: String(decoding: data, as: UTF8.self))
        } catch {
            throw BenchError(message: "\(categoryLabels): \(error)")
        }
    }

    /// Long side of the receipt previews in the HTML report: enough to read the totals, small enough to share.
    static let thumbnailLongSide = 900

    func writeReports(
        _ summary: BenchSummary, to folder: URL, fixtures: [BenchFixture], options: ImageProcessingOptions
    ) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(summary).write(to: folder.appendingPathComponent("bench.json"))
        let images = Dictionary(uniqueKeysWithValues: fixtures.map { ($0.name, $0.image) })
        let html = BenchHTMLReport.render(summary) { name in
            guard let url = images[name], let data = FileManager.default.contents(atPath: url.path),
                let preview = try? Thumbnail.jpeg(data, file: name, longSide: Self.thumbnailLongSide, options: options)
            else { return nil }
            return ("image/jpeg", preview)
        }
        try Data(html.utf8).write(to: folder.appendingPathComponent("bench.html"))
        printError("wrote \(folder.appendingPathComponent("bench.json").path) and bench.html")
    }

    func writePredictions(_ outcomes: [BenchRunner.Outcome], to folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        for outcome in outcomes {
            let file = folder.appendingPathComponent(outcome.fixture.name).deletingPathExtension()
                .appendingPathExtension("json")
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            var prediction = FixtureLabel(prediction: outcome.draft, dataset: outcome.fixture.label.source.dataset)
            prediction.category = outcome.score.category?.got.rawValue
            try encoder.encode(prediction).write(to: file)
        }
        printError("wrote \(outcomes.count) predictions under \(folder.path)")
    }
}
