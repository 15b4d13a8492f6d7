import ArgumentParser
import Foundation
import PipelineApp
import PipelineCore
import ReceiptBench

/// `pipeline extraction-features`: every candidate of the key fields with its features and whether it matches the
/// label, one JSON line per receipt, for `scripts/fit-extraction` (see `docs/extraction-fitting.md`).
struct ExtractionFeaturesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extraction-features", abstract: "Dump extraction candidates and their features for fitting.",
        discussion: """
            Reads each labeled fixture's OCR page from --ocr-cache (fill it with `pipeline bench --ocr-cache`), runs \
            extraction and reconciliation with the committed weights or those in --model, and writes one JSON line per \
            receipt: the candidates of total, merchant and date with their features and whether each matches the \
            label, each key field's trust features, the reconciliation reasons that may hold it, the reader whose trust models weigh them (the configured \
            ocr.engine, which must be the engine that read the cached pages), and the scored fields.

            Example: pipeline extraction-features --fixtures ../shared/fixtures/train \
            --ocr-cache /work/ocr-cache/tesseract/train --out train.jsonl
            """)

    @OptionGroup var options: GlobalOptions
    @Option(help: ArgumentHelp("Folder of labeled images (searched recursively).", valueName: "dir"))
    var fixtures: String
    @Option(help: ArgumentHelp("OCR pages of those images (NAME.jpg.json per image).", valueName: "dir"))
    var ocrCache: String
    @Option(
        help: ArgumentHelp(
            "Weights to rank with instead of the committed ones (ExtractionModel JSON).", valueName: "file"))
    var model: String?
    @Option(help: ArgumentHelp("Write the JSON lines here.", valueName: "file"))
    var out: String
    @Flag(
        help: """
            Learn merchants as the replay does: each receipt, in file-name order, is read knowing the labeled \
            merchants of the receipts before it, with the header lines they were read from (LearnedMerchants).
            """)
    var learnFromLabels = false

    /// One receipt's line.
    struct Record: Encodable {
        struct Field<Feature: ExtractionFeature>: Encodable {
            var label: String?
            var candidates: [Candidate<Feature>]
        }
        struct Candidate<Feature: ExtractionFeature>: Encodable {
            var value: String
            var features: CandidateFeatures<Feature>
            var correct: Bool
        }
        var name: String
        var dataset: String
        var total: Field<TotalFeature>?
        var merchant: Field<MerchantFeature>?
        var date: Field<DateFeature>?
        /// Each key field's trust features by name (`AutoAcceptance.namedFeatures`); a field without ranked
        /// evidence is left out.
        var trust: [String: [String: Double]]
        /// The reader whose trust models weigh this page (`PageReader`).
        var reader: PageReader
        var status: ExpenseStatus
        /// The reconciliation reasons its checks give (`unbalanced`, `incomplete`): the fit chooses, per trust
        /// budget, which of them still hold a receipt whose key fields are trusted.
        var holds: [ReviewReason]
        var scored: [String: Bool]
        var items: ItemCounts?
        /// The reconciliation's checks that failed, worded as the review page words them.
        var failedChecks: [String]
        /// The checks that passed, by code (`summary_to_total`, `items_to_subtotal`, …).
        var passedChecks: [String]
        /// What vouches for each key field whatever its probability (`Vouch`), by field.
        var vouchedBy: [String: String]
    }

    func run() async throws {
        try await runReportingErrors {
            let context = try CommandContext(options: options)
            let fixtureFolder = URL(fileURLWithPath: fixtures)
            let cache = OCRPageCache(directory: URL(fileURLWithPath: ocrCache), fixtureFolder: fixtureFolder)
            let weights = try loadModel()
            let reconciler = Reconciler(configuration: context.configuration.validation)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            var output = Data()
            var known: [KnownMerchant] = []
            let reader = PageReader(engine: context.configuration.ocr.engine, source: .ocr)
            for fixture in try BenchFixture.load(from: fixtureFolder) {
                let page = try cache.page(for: fixture.image)
                let (draft, candidates) = ReceiptExtractor.extractWithCandidates(
                    page, reader: reader, known: known, model: weights)
                if learnFromLabels, let name = fixture.label.merchant, !name.isEmpty {
                    known = Self.learning(name, from: draft, page: page, into: known)
                }
                let result = reconciler.reconcile(draft)
                let trust = AutoAcceptance.namedFeatures(result)
                let decision = AutoAcceptance.decide(result, calibrations: weights.trust)
                let score = ReceiptScorer.score(
                    name: fixture.name, label: fixture.label, result: result, latency: 0, ocrText: "")
                let record = Record(
                    name: fixture.name, dataset: fixture.label.source.dataset,
                    total: field(.total, "total", fixture.label.total, candidates.total, fixture.label),
                    merchant: field(
                        .merchantFuzzy, "merchant", fixture.label.merchant, candidates.merchant, fixture.label),
                    date: field(.date, "date", fixture.label.date, candidates.date, fixture.label),
                    trust: Dictionary(uniqueKeysWithValues: trust.map { ($0.key.rawValue, $0.value) }), reader: reader,
                    status: decision.status,
                    holds: ReviewReason.allCases.filter(
                        Set(result.recordedFindings.compactMap(ReviewPolicy.reason(for:)))
                            .intersection(TrustModels.reconciliationHolds).contains),
                    scored: Dictionary(uniqueKeysWithValues: score.fields.map { ($0.field.rawValue, $0.isCorrect) }),
                    items: score.items,
                    failedChecks: result.findings.filter { !$0.passed }.map(\.message),
                    passedChecks: result.findings.filter(\.passed).map(\.check.rawValue),
                    vouchedBy: Dictionary(
                        uniqueKeysWithValues: decision.fields.compactMap { field in
                            field.vouchedBy.map { (field.field.rawValue, $0.description) }
                        }))
                output.append(try encoder.encode(record))
                output.append(0x0A)
            }
            try output.write(to: URL(fileURLWithPath: out))
        }
    }

    /// `known` after a person confirmed `name` for a receipt read as `draft`: the header it was read from becomes
    /// one of the name's readings, its confirmations one more, and the name the most recently used.
    static func learning(_ name: String, from draft: ExpenseDraft, page: OCRPage, into known: [KnownMerchant])
        -> [KnownMerchant]
    {
        let lines = page.text.components(separatedBy: "\n")
        let header = (draft.merchant?.sourceLines ?? []).filter { $0 < lines.count }.map { lines[$0] }
            .joined(separator: " ")
        var merchant = known.first { $0.name == name } ?? KnownMerchant(name: name, readings: [], confirmations: 0)
        if !header.isEmpty, !merchant.readings.contains(header) { merchant.readings.append(header) }
        merchant.confirmations += 1
        return [merchant] + known.filter { $0.name != name }
    }

    func loadModel() throws -> ExtractionModel {
        guard let model else { return .fitted }
        guard let data = FileManager.default.contents(atPath: model) else {
            throw ValidationError(
                "cannot read --model \(model); pass an ExtractionModel JSON file written by scripts/fit-extraction")
        }
        do {
            return try JSONDecoder().decode(ExtractionModel.self, from: data)
        } catch {
            throw ValidationError("--model \(model) is not ExtractionModel JSON: \(error)")
        }
    }

    /// A field's candidates marked right or wrong against the label; nil when the label does not score the field.
    func field<Feature: ExtractionFeature>(
        _ scored: ScoredField, _ key: String, _ expected: String?, _ candidates: [ScoredCandidate<Feature>],
        _ label: FixtureLabel
    ) -> Record.Field<Feature>? {
        guard label.source.labeledFields.contains(key) else { return nil }
        return Record.Field(
            label: expected,
            candidates: candidates.map { candidate in
                Record.Candidate(
                    value: candidate.value, features: candidate.features,
                    correct: expected.map { ReceiptScorer.matches(scored, expected: $0, got: candidate.value) }
                        ?? false)
            })
    }
}
