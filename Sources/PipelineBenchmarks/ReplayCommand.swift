import ArgumentParser
import Foundation
import PipelineApp
import PipelineCore
import PostgresStore
import ReceiptBench

/// `pipeline-bench replay`: what using the pipeline costs a person and what it gets wrong unseen, over labeled
/// receipts replayed in file-name order (`ReplayRunner`, `docs/extraction-fitting.md`).
struct ReplayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay", abstract: "Replay labeled receipts through ingest, the worker and review.",
        discussion: """
            Ingests each labeled receipt in file-name order, runs the worker on it, and when it lands in review \
            corrects its labeled key fields (merchant, date, total) from the label and accepts it, as \
            `pipeline correct ID … --accept` does, so later receipts learn from it. Prints per dataset and overall: \
            touches per 100 receipts (receipts a person had to look at) and silent errors per 100 (accepted with a \
            labeled key field wrong), for the whole run, each half of it, and the receipts whose merchant an earlier \
            receipt had (seen) against those whose merchant was first seen. Seen receipts are also counted without \
            repeats (an earlier receipt has the same labeled merchant, date and total: one receipt scanned or \
            photographed again, which a person must see), and the repeats caught (flagged as possible duplicates, or \
            the same file skipped at ingest). A receipt whose job went dead (a damaged image) counts as a touch and \
            the run goes on.

            The database is a throwaway embedded PostgreSQL unless DATABASE_URL names one, which must hold no \
            receipts. --ocr-cache reads the OCR pages `pipeline bench --ocr-cache` stored instead of running OCR. \
            --without-learning runs the same replay with the worker blind to what the corrections taught, so the two \
            runs show what learning is worth on the same receipts in the same order. --unattended lets nobody \
            review: a receipt held for review stays held and teaches nothing, as `pipeline ingest` and `pipeline \
            work --drain` leave a batch (what the machine's own accepted receipts teach the later ones still counts). \
            --batch reads the whole batch first, then a person works the review queue in the same order; each \
            receipt they settle lets the machine decide again the held receipts that read like its merchant, and \
            those it then accepts are no touch (counted as "decided again").

            Example: pipeline-bench replay --fixtures ../shared/fixtures/train \
            --ocr-cache /work/ocr-cache/ppocr-swift/train --json replay-train.json
            """)

    @OptionGroup var options: GlobalOptions
    @Option(help: ArgumentHelp("Folder of labeled images (searched recursively).", valueName: "dir"))
    var fixtures: String
    @Option(help: ArgumentHelp("OCR pages of those images (NAME.jpg.json per image).", valueName: "dir"))
    var ocrCache: String?
    @Option(help: ArgumentHelp("Also write the figures and every receipt's step as JSON here.", valueName: "file"))
    var json: String?
    @Flag(help: "Correct as usual, but let the worker learn nothing from the corrections (merchants, categories).")
    var withoutLearning = false
    @Flag(help: "Nobody reviews: a receipt held for review stays held, as an unattended batch.")
    var unattended = false
    @Flag(help: "Read the whole batch first, then review the held receipts in order.")
    var batch = false

    func validate() throws {
        guard !(unattended && batch) else {
            throw ValidationError(
                "--unattended and --batch exclude each other: nobody reviews, or a person reviews after the batch")
        }
    }

    struct Report: Encodable {
        var fixtures: String
        var figures: [ReplayFigures]
        var steps: [ReplayStep]
    }

    func run() async throws {
        try await runReportingErrors {
            let folder = URL(fileURLWithPath: fixtures)
            let labeled = try BenchFixture.load(from: folder)
            let cache = ocrCache.map { OCRPageCache(directory: URL(fileURLWithPath: $0), fixtureFolder: folder) }
            let steps = try await withReplayContext { context in
                try await context.withSession(label: "replay") { session in
                    _ = try await session.migrate()
                    var intake = try await ReplayIntake.make(
                        context: context, store: session.intakeStore, ocrCache: cache,
                        fixtures: labeled)
                    intake.learns = !withoutLearning
                    let reviewing: ReplayRunner<PostgresReviewStore>.Reviewing =
                        unattended ? .nobody : batch ? .afterBatch(drain: intake.drain) : .eachReceipt
                    let runner = ReplayRunner(
                        store: session.reviewStore, reviewing: reviewing, process: intake.process)
                    let steps = try await runner.run(labeled)
                    await intake.shutdown()
                    return steps
                }
            }
            let figures = ReplayFigures.table(steps)
            print(Self.table(figures))
            if batch {
                let again = steps.filter(\.decidedAgain)
                print(
                    "decided again after a confirmation and accepted: \(again.count) receipt(s), "
                        + "\(again.filter { !$0.wrongWhenAccepted.isEmpty }.count) of them with a key field wrong")
            }
            if let json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try encoder.encode(Report(fixtures: fixtures, figures: figures, steps: steps))
                    .write(to: URL(fileURLWithPath: json))
            }
        }
    }

    /// Runs `body` with the command's context: against DATABASE_URL's database, else a throwaway embedded cluster
    /// removed afterwards. The worker logs warnings only (one start and stop per receipt), unless
    /// `PIPELINE_LOGGING_LEVEL` says otherwise.
    func withReplayContext<T>(_ body: (CommandContext) async throws -> T) async throws -> T {
        var environment = ProcessInfo.processInfo.environment
        if environment["PIPELINE_LOGGING_LEVEL"] == nil { environment["PIPELINE_LOGGING_LEVEL"] = "warning" }
        let context = try CommandContext(options: options, environment: environment)
        guard context.usesEmbeddedDatabase else { return try await body(context) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("replay-\(UUID().uuidString)")
        let cluster = EmbeddedCluster(directory: folder)
        defer {
            _ = try? cluster.stop()
            try? FileManager.default.removeItem(at: folder)
        }
        _ = try cluster.start()
        environment["DATABASE_URL"] = cluster.connectionString
        return try await body(try CommandContext(options: options, environment: environment))
    }

    /// The figures as a Markdown table.
    static func table(_ figures: [ReplayFigures]) -> String {
        let rows = figures.map { row in
            "| \(row.group) | \(row.receipts) | "
                + [
                    row.touchesPer100, row.silentErrorsPer100, row.firstHalf.touchesPer100,
                    row.secondHalf.touchesPer100, row.firstHalf.silentErrorsPer100, row.secondHalf.silentErrorsPer100,
                ].map { String(format: "%.1f", $0) }.joined(separator: " | ")
                + " | \(group(row.seenMerchant)) | \(group(row.seenMerchantNewReceipt)) | \(group(row.firstSeenMerchant)) "
                + "| \(row.repeatsCaught) of \(row.repeats) | \(row.dead) |"
        }
        return
            ([
                "| set | receipts | touches /100 | silent errors /100 | touches 1st half | touches 2nd half "
                    + "| silent 1st half | silent 2nd half | merchant seen: receipts, touches, silent "
                    + "| merchant seen, not a repeat: receipts, touches, silent "
                    + "| merchant first seen: receipts, touches, silent | repeats caught | dead |",
                "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
            ] + rows).joined(separator: "\n")
    }

    /// A group's receipts, touches and silent errors per 100: "41, 12.2, 0.0".
    static func group(_ half: ReplayFigures.Half) -> String {
        String(format: "%d, %.1f, %.1f", half.receipts, half.touchesPer100, half.silentErrorsPer100)
    }
}
