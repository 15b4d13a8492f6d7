import Crypto
import Foundation
import Logging
import PipelineCore
import PipelineRuntime
import PostgresStore

/// One receipt of a replay: where the worker put it and what the person had to do.
package struct ReplayStep: Sendable, Codable, Equatable {
    package var name: String
    package var dataset: String
    /// It landed in review, so a person looked at it.
    package var touched: Bool
    /// The key fields the person corrected (empty: accepted as read).
    package var corrected: [String]
    /// Accepted by the machine with these labeled key fields wrong (a silent error when not empty).
    package var wrongWhenAccepted: [String]
    /// Why it went to review, as the expense's findings say.
    package var findings: [String]
}

/// Replays labeled receipts through the real system, in file-name order, one at a time: ingest, the worker's
/// pipeline and commit (`pipeline work --drain`), and, for a receipt that lands in review, a person's correction of
/// its labeled key fields with the label's values through the review store (`pipeline correct … --accept`). What the
/// person corrected teaches later receipts as it does in use (`LearnedMerchants`).
package struct ReplayRunner {
    package var context: CommandContext
    /// The OCR pages to use instead of running the engine (the `pipeline bench --ocr-cache` layout), when given.
    package var ocrCache: OCRPageCache?
    /// Who the corrections are recorded as.
    package static let person = "replay"

    package init(context: CommandContext, ocrCache: OCRPageCache?) {
        self.context = context
        self.ocrCache = ocrCache
    }

    /// Replays `fixtures` into the database `connection` reaches (which must hold no receipts yet).
    /// - Parameter progress: called after each receipt with (done, total).
    package func run(
        _ fixtures: [BenchFixture], target: PostgresTarget, connection: PostgresConnection,
        progress: (Int, Int) -> Void = { _, _ in }
    ) async throws -> [ReplayStep] {
        let stored = try await connection.query("SELECT count(*) AS n FROM receipts").first?.int("n") ?? 0
        guard stored == 0 else {
            throw BenchError(
                message:
                    "the replay database already holds \(stored) receipt(s); replay into an empty database (unset "
                    + "DATABASE_URL for a throwaway embedded one)")
        }
        var configuration = context.configuration
        configuration.workers.concurrency = 1
        // One worker start and stop per receipt: only warnings are worth printing.
        var logger = context.logger
        logger.logLevel = max(logger.logLevel, .warning)
        let engine: (any OCREngine)? =
            ocrCache.map { cache in fixtures.allSatisfy { cache.contains($0.image) } } == true
            ? nil : try await ReceiptImageReader.make(configuration: configuration, count: 1)
        let store = PostgresReviewStore(connection: connection)
        var steps: [ReplayStep] = []
        for (index, fixture) in fixtures.enumerated() {
            let receiptID = try await ingest(fixture, configuration: configuration, connection: connection)
            let ocr: any OCREngine =
                if let ocrCache {
                    CachedOCREngine(
                        cache: ocrCache,
                        images: [
                            StoredReceipt.displayName(id: receiptID, originalName: fixture.image.lastPathComponent):
                                fixture.image
                        ],
                        engine: engine)
                } else if let engine { engine } else { throw BenchError(message: "no OCR engine for the replay") }
            try await work(
                ocr: ocr, configuration: configuration, target: target, connection: connection, logger: logger)
            guard let detail = try await store.receipt(receiptID) else {
                throw BenchError(message: "\(fixture.name): receipt \(receiptID) vanished during the replay")
            }
            var step = ReplayStep(
                name: fixture.name, dataset: fixture.label.source.dataset, touched: detail.status == .needsReview,
                corrected: [], wrongWhenAccepted: [], findings: detail.findings)
            let wrong = Self.wrongKeyFields(detail, label: fixture.label)
            if step.touched {
                let corrections = try Self.corrections(for: wrong, label: fixture.label)
                try await store.review(
                    receiptID, corrections: corrections, items: [], decision: .accept, by: Self.person)
                step.corrected = wrong.map(\.rawValue)
            } else {
                step.wrongWhenAccepted = wrong.map(\.rawValue)
            }
            steps.append(step)
            progress(index + 1, fixtures.count)
        }
        if let engine = engine as? ReceiptImageReader { await engine.shutdown() }
        return steps
    }

    /// Stores the fixture's image with its job, as `pipeline ingest` does. - Returns: its receipt id.
    private func ingest(_ fixture: BenchFixture, configuration: PipelineConfiguration, connection: PostgresConnection)
        async throws -> Int64
    {
        let scan = FileScanner(settleTime: .zero).scan([RawPath(fixture.image.path)])
        let summary = try await Ingester(configuration: configuration).ingest(scan, into: connection, dryRun: false)
        if let rejected = summary.rejected.first {
            throw BenchError(message: "\(fixture.name): ingest refused it: \(rejected.reason)")
        }
        let digest = SHA256.hash(data: try Data(contentsOf: fixture.image)).map { String(format: "%02x", $0) }.joined()
        guard
            let id = try await connection.query("SELECT id FROM receipts WHERE sha256 = $1", [digest]).first?.int("id")
        else {
            throw BenchError(message: "\(fixture.name): not stored after ingest (a duplicate of an earlier image?)")
        }
        return Int64(id)
    }

    /// Runs the worker over the queue until it is empty, as `pipeline work --drain` does.
    private func work(
        ocr: any OCREngine, configuration: PipelineConfiguration, target: PostgresTarget,
        connection: PostgresConnection, logger: Logger
    ) async throws {
        let pipeline = try await ReceiptPipeline.worker(
            configuration: configuration, ocr: ocr, vision: nil, reader: connection)
        let processor = ReceiptProcessor(
            pipeline: pipeline, source: PostgresReceiptSource(connection: connection), recorder: connection,
            logger: logger)
        let queue = PostgresWorkQueue.worker(configuration: configuration, target: target, logger: logger)
        let runtime = WorkerRuntime(
            queue: queue, options: WorkerOptions(configuration: configuration, drain: true), logger: logger,
            handler: processor.handle)
        let summary = await runtime.run()
        await queue.close()
        if let dead = summary.deadJobs.first {
            throw BenchError(message: "replay: a job went dead: \(dead.failure?.description ?? "no reason recorded")")
        }
    }

    /// The labeled key fields whose stored value the label contradicts (fuzzy for the merchant, as the bench
    /// scores it).
    static func wrongKeyFields(_ detail: ReceiptDetail, label: FixtureLabel) -> [KeyField] {
        KeyField.allCases.filter { field in
            guard let expected = labeled(field, label) else { return false }
            let got = detail.reading(field.correctable)?.value ?? ""
            return !ReceiptScorer.matches(scoredField(field), expected: expected, got: got)
        }
    }

    /// What a person types for each wrong field: the label's value, checked by the one rule for the field.
    static func corrections(for fields: [KeyField], label: FixtureLabel) throws -> [CorrectableField: String?] {
        var corrections: [CorrectableField: String?] = [:]
        for field in fields {
            guard let value = labeled(field, label) else { continue }
            corrections[field.correctable] = .some(try FieldValue.normalize(value, for: field.correctable))
        }
        return corrections
    }

    /// The label's value of a key field, nil when the label does not score it.
    static func labeled(_ field: KeyField, _ label: FixtureLabel) -> String? {
        guard label.source.labeledFields.contains(field.rawValue) else { return nil }
        switch field {
        case .merchant: return label.merchant
        case .date: return label.date
        case .total: return label.total
        }
    }

    static func scoredField(_ field: KeyField) -> ScoredField {
        switch field {
        case .merchant: .merchantFuzzy
        case .date: .date
        case .total: .total
        }
    }
}

/// The replay's figures for one group of receipts (a dataset, or all), over the whole run and each half of it.
package struct ReplayFigures: Sendable, Codable, Equatable {
    package var group: String
    package var receipts: Int
    package var touchesPer100: Double
    package var silentErrorsPer100: Double
    package var firstHalf: Half
    package var secondHalf: Half

    package struct Half: Sendable, Codable, Equatable {
        package var receipts: Int
        package var touchesPer100: Double
        package var silentErrorsPer100: Double
    }

    /// The figures of `steps` (in replay order): the halves split that order in two.
    package init(group: String, steps: [ReplayStep]) {
        func half(_ part: ArraySlice<ReplayStep>) -> Half {
            let count = max(1, part.count)
            return Half(
                receipts: part.count, touchesPer100: 100 * Double(part.filter(\.touched).count) / Double(count),
                silentErrorsPer100: 100 * Double(part.filter { !$0.wrongWhenAccepted.isEmpty }.count) / Double(count))
        }
        let whole = half(steps[...])
        self.group = group
        self.receipts = steps.count
        self.touchesPer100 = whole.touchesPer100
        self.silentErrorsPer100 = whole.silentErrorsPer100
        self.firstHalf = half(steps.prefix(steps.count / 2))
        self.secondHalf = half(steps.dropFirst(steps.count / 2))
    }

    /// Per dataset (in name order) and `all`.
    package static func table(_ steps: [ReplayStep]) -> [ReplayFigures] {
        let datasets = Set(steps.map(\.dataset)).sorted()
        return datasets.map { dataset in ReplayFigures(group: dataset, steps: steps.filter { $0.dataset == dataset }) }
            + [ReplayFigures(group: "all", steps: steps)]
    }
}
