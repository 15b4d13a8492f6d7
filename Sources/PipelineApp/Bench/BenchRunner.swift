import Foundation
import PipelineCore

/// Reads one image into an OCR page. The bench takes OCR as a function so any engine (or a cache) plugs in.
typealias OCRFunction = @Sendable (URL) async throws -> OCRPage

/// Runs OCR → extract → reconcile on every fixture, `concurrency` at a time, and scores each receipt.
struct BenchRunner: Sendable {
    var ocr: OCRFunction
    var reconciler: Reconciler
    var concurrency: Int

    /// A receipt's prediction beside its score, for `--predictions`.
    struct Outcome: Sendable {
        var fixture: BenchFixture
        var score: ReceiptScore
        var draft: ExpenseDraft
        var error: String?
    }

    func run(_ fixtures: [BenchFixture]) async -> [Outcome] {
        await withTaskGroup(of: Outcome.self) { group in
            var outcomes: [Outcome] = []
            var next = 0
            for _ in 0..<min(concurrency, fixtures.count) {
                let fixture = fixtures[next]
                group.addTask { await process(fixture) }
                next += 1
            }
            for await outcome in group {
                outcomes.append(outcome)
                if next < fixtures.count {
                    let fixture = fixtures[next]
                    group.addTask { await process(fixture) }
                    next += 1
                }
            }
            return outcomes.sorted { $0.fixture.name < $1.fixture.name }
        }
    }

    /// One receipt; an OCR failure is scored as an empty page and reported, never dropped.
    func process(_ fixture: BenchFixture) async -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        var page = OCRPage(lines: [], width: 0, height: 0, meanConfidence: 0)
        var failure: String?
        do {
            page = try await ocr(fixture.image)
        } catch {
            failure = "\(fixture.name): ocr: \(error)"
        }
        let result = reconciler.reconcile(ReceiptExtractor.extract(page))
        let elapsed = start.duration(to: clock.now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        var score = ReceiptScorer.score(
            name: fixture.name, label: fixture.label, result: result, latency: seconds, ocrText: page.text)
        if let failure { score.findings.insert(failure, at: 0) }
        return Outcome(fixture: fixture, score: score, draft: result.draft, error: failure)
    }
}

/// OCR pages stored as JSON, one per image (`CACHE/<name>.json`, e.g. `CACHE/sroie/sroie_006.jpg.json`).
struct OCRPageCache: Sendable {
    var directory: URL
    var fixtureFolder: URL

    func contains(_ image: URL) -> Bool { FileManager.default.fileExists(atPath: file(for: image).path) }

    func page(for image: URL) throws -> OCRPage {
        let file = file(for: image)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw BenchError(message: "no cached OCR page at \(file.path); fill the cache or run without --ocr-cache")
        }
        do {
            return try JSONDecoder().decode(OCRPage.self, from: data)
        } catch {
            throw BenchError(message: "cached OCR page \(file.path) is not OCRPage JSON: \(error)")
        }
    }

    func store(_ page: OCRPage, for image: URL) throws {
        let file = file(for: image)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(page).write(to: file, options: .atomic)
    }

    /// `CACHE/<path of the image under the fixture folder>.json`.
    private func file(for image: URL) -> URL {
        let base = fixtureFolder.standardizedFileURL.path
        var name = image.standardizedFileURL.path
        if name.hasPrefix(base + "/") { name.removeFirst(base.count + 1) }
        return directory.appendingPathComponent(name + ".json")
    }
}
