import Foundation
import PipelineCore

/// Runs the receipt pipeline on every fixture, `concurrency` at a time, and scores each receipt.
///
/// The stages are the worker's (`ReceiptPipeline`); only the ends differ: fixtures come from files instead of the
/// `receipts` table, and the records are scored instead of committed.
package struct BenchRunner: Sendable {
    package var pipeline: ReceiptPipeline
    package var concurrency: Int
    /// Category labels to score the categories against; nil: categories are reported, not scored.
    package var categories: CategoryLabels?

    package init(pipeline: ReceiptPipeline, concurrency: Int, categories: CategoryLabels? = nil) {
        self.pipeline = pipeline
        self.concurrency = concurrency
        self.categories = categories
    }

    /// A receipt's prediction beside its score, for `--predictions`.
    package struct Outcome: Sendable {
        package var fixture: BenchFixture
        package var score: ReceiptScore
        package var draft: ExpenseDraft
        package var error: String?
    }

    package func run(_ fixtures: [BenchFixture]) async -> [Outcome] {
        await withTaskGroup(of: Outcome.self) { group in
            var outcomes: [Outcome] = []
            var pending = fixtures.enumerated().makeIterator()
            func startNext() {
                guard let (index, fixture) = pending.next() else { return }
                group.addTask { await process(fixture, id: Int64(index + 1)) }
            }
            for _ in 0..<concurrency { startNext() }
            for await outcome in group {
                outcomes.append(outcome)
                startNext()
            }
            return outcomes.sorted { $0.fixture.name < $1.fixture.name }
        }
    }

    /// A fixture's expense category: from `bench/category-labels.tsv`, else from its own label (the generated
    /// receipts carry it, `scripts/synth_receipts`); nil when neither names one.
    private func expectedCategory(of fixture: BenchFixture) -> ExpenseCategory? {
        categories?[fixture.name]?.expense ?? fixture.label.category.flatMap(ExpenseCategory.init(rawValue:))
    }

    /// One receipt; a failure is scored as a receipt with nothing read and reported, never dropped.
    package func process(_ fixture: BenchFixture, id: Int64) async -> Outcome {
        let start = ContinuousClock.now
        do {
            let bytes = try Data(contentsOf: fixture.image)
            guard case .supported(let format) = detectImageFormat(leadingBytes: bytes.prefix(imageSignatureLength))
            else { throw BenchError(message: "\(fixture.name) is not an image the pipeline decodes") }
            let receipt = StoredReceipt(
                id: id, sha256: "", originalName: fixture.name, format: format, bytes: Array(bytes), ingestedAt: Date())
            let run = try await pipeline.run(receipt, attempt: .only)
            let latency = (ContinuousClock.now - start).seconds
            var score = ReceiptScorer.score(
                name: fixture.name, label: fixture.label, record: run.record, latency: latency)
            score.category = CategoryComparison(
                expected: expectedCategory(of: fixture), got: run.record.categorization.expense,
                source: run.record.categorization.source)
            return Outcome(fixture: fixture, score: score, draft: run.record.result.draft, error: nil)
        } catch {
            let failure = "\(fixture.name): \(error)"
            let nothingRead = ReconciliationResult(draft: ExpenseDraft(), outcome: .incomplete, findings: [])
            var score = ReceiptScorer.score(
                name: fixture.name, label: fixture.label, result: nothingRead,
                latency: (ContinuousClock.now - start).seconds, ocrText: "")
            score.findings.insert(failure, at: 0)
            score.category = CategoryComparison(expected: expectedCategory(of: fixture), got: .other, source: .unsure)
            return Outcome(fixture: fixture, score: score, draft: nothingRead.draft, error: failure)
        }
    }
}

/// OCR pages stored as JSON, one per image (`CACHE/<name>.json`, e.g. `CACHE/sroie/sroie_006.jpg.json`): the
/// page's fields (`OCRPage`) and `readBy`, the engine that read it (`ppocr`, `tesseract`, `both`). A page cached
/// before the cache recorded its engine has no `readBy`.
package struct OCRPageCache: Sendable {
    /// One cached page and the engine that read it; nil for a page cached before the cache recorded engines.
    private struct Entry: Codable {
        var page: OCRPage
        var readBy: OCREngineChoice?

        private enum CodingKeys: String, CodingKey { case readBy }

        init(page: OCRPage, readBy: OCREngineChoice?) {
            self.page = page
            self.readBy = readBy
        }

        /// The page's own fields with `readBy` beside them, so older readers still read the page.
        init(from decoder: any Decoder) throws {
            page = try OCRPage(from: decoder)
            readBy = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(
                OCREngineChoice.self, forKey: .readBy)
        }

        func encode(to encoder: any Encoder) throws {
            try page.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(readBy, forKey: .readBy)
        }
    }

    package var directory: URL
    package var fixtureFolder: URL

    package init(directory: URL, fixtureFolder: URL) {
        self.directory = directory
        self.fixtureFolder = fixtureFolder
    }

    package func contains(_ image: URL) -> Bool { FileManager.default.fileExists(atPath: file(for: image).path) }

    /// The page cached for `image`, whoever read it.
    /// - Throws: `BenchError` naming the file when it is missing or not a cached page.
    package func page(for image: URL) throws -> OCRPage { try entry(for: image).page }

    /// The page cached for `image`, which `engine` must have read; a page cached before the cache recorded its
    /// engine is taken as `engine`'s.
    /// - Throws: `BenchError` naming the file and both engines when another engine read it, or as `page(for:)`.
    package func page(for image: URL, readBy engine: OCREngineChoice) throws -> OCRPage {
        let entry = try entry(for: image)
        if let readBy = entry.readBy, readBy != engine {
            throw BenchError(
                message: "cached OCR page \(file(for: image).path) was read by \(readBy.rawValue), and this run "
                    + "reads with \(engine.rawValue) (ocr.engine); give --ocr-cache a folder of \(engine.rawValue) "
                    + "pages, or set PIPELINE_OCR_ENGINE=\(readBy.rawValue)")
        }
        return entry.page
    }

    /// Stores `page`, read by `engine`, as the cached page of `image`.
    package func store(_ page: OCRPage, readBy engine: OCREngineChoice, for image: URL) throws {
        let file = file(for: image)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(Entry(page: page, readBy: engine)).write(to: file, options: .atomic)
    }

    private func entry(for image: URL) throws -> Entry {
        let file = file(for: image)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw BenchError(message: "no cached OCR page at \(file.path); fill the cache or run without --ocr-cache")
        }
        do {
            return try JSONDecoder().decode(Entry.self, from: data)
        } catch {
            throw BenchError(
                message: "cached OCR page \(file.path) is not OCRPage JSON with an optional readBy engine: \(error)")
        }
    }

    /// `CACHE/<path of the image under the fixture folder>.json`.
    private func file(for image: URL) -> URL {
        let base = fixtureFolder.standardizedFileURL.path
        var name = image.standardizedFileURL.path
        if name.hasPrefix(base + "/") { name.removeFirst(base.count + 1) }
        return directory.appendingPathComponent(name + ".json")
    }
}

/// The bench's OCR stage behind the page cache: a cached page is read back (its image stages take no time and
/// keep no JPEG); any other image goes to `engine` and its page is stored with the engine that read it.
package struct CachedOCREngine: OCREngine {
    package var cache: OCRPageCache
    /// The fixture image of each file name the pipeline passes (`StoredReceipt.displayName`).
    package var images: [String: URL]
    /// Reads images with no cached page; nil when every page is cached.
    package var engine: (any OCREngine)?
    /// The engine the run reads with (`ocr.engine`): every cached page must be its.
    package let readsWith: OCREngineChoice

    package init(cache: OCRPageCache, images: [String: URL], engine: (any OCREngine)?, readsWith: OCREngineChoice) {
        self.cache = cache
        self.images = images
        self.engine = engine
        self.readsWith = readsWith
    }

    package func process(_ bytes: Data, file: String) async throws -> ProcessedImage {
        guard let image = images[file] else {
            throw BenchError(message: "\(file) is not a fixture of this run")
        }
        if cache.contains(image) {
            return try placeholder(bytes, file: file, page: try cache.page(for: image, readBy: readsWith))
        }
        guard let engine else {
            throw BenchError(message: "no cached OCR page for \(file) and no OCR engine; run without --ocr-cache")
        }
        let processed = try await engine.process(bytes, file: file)
        try cache.store(processed.page, readBy: processed.readBy, for: image)
        return processed
    }

    /// The image stages around a page read before: `engine`'s, or with every page cached, no image stages at all.
    package func decode(_ bytes: Data, file: String, page: OCRPage) async throws -> ProcessedImage {
        guard let engine else { return try placeholder(bytes, file: file, page: page) }
        return try await engine.decode(bytes, file: file, page: page)
    }

    /// `page` as the image stages' result, without decoding the image (no JPEG, no time).
    private func placeholder(_ bytes: Data, file: String, page: OCRPage) throws -> ProcessedImage {
        guard case .supported(let format) = detectImageFormat(leadingBytes: bytes.prefix(imageSignatureLength))
        else { throw BenchError(message: "\(file) is not an image the pipeline decodes") }
        return ProcessedImage(
            format: format, originalWidth: 0, originalHeight: 0, page: page, compressedJPEG: Data(),
            originalBytes: bytes.count, timings: ImageStageTimings(), readBy: readsWith)
    }
}
