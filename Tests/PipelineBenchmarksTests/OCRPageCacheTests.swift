import Foundation
import PipelineCore
import ReceiptBench
import TestSupport
import Testing

/// The bench's OCR page cache (`--ocr-cache`) over real files: what it records and what it reads back.
@Suite struct OCRPageCacheTests {
    private static let name = "sroie_006.jpg"

    private static func withCache(_ body: (OCRPageCache, URL) async throws -> Void) async throws {
        let folder = try TestEnvironment.makeTemporaryFolder("ocr-cache-engine")
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = TestEnvironment.receipt(name)
        try await body(OCRPageCache(directory: folder, fixtureFolder: image.deletingLastPathComponent()), image)
    }

    @Test("A page the engine reads is cached with the engine that read it, read back as its, refused to another")
    func aCachedPageSaysWhichEngineReadIt() async throws {
        try await Self.withCache { cache, image in
            let bytes = try Data(contentsOf: image)
            let engine = try RecordedOCREngine.shipped([Self.name], readsWith: .tesseract)
            let filling = CachedOCREngine(
                cache: cache, images: [Self.name: image], engine: engine, readsWith: .tesseract)
            let read = try await filling.process(bytes, file: Self.name)

            let file = cache.directory.appendingPathComponent(Self.name + ".json")
            let stored = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
            #expect(stored?["readBy"] as? String == "tesseract")
            #expect(stored?["lines"] != nil, "the page's own fields stay where older caches have them")
            let cached = CachedOCREngine(cache: cache, images: [Self.name: image], engine: nil, readsWith: .tesseract)
            let again = try await cached.process(bytes, file: Self.name)
            #expect(again.page == read.page && again.readBy == .tesseract)
            #expect(await engine.log.files == [Self.name], "the second run read the cache, not the engine")

            let other = CachedOCREngine(cache: cache, images: [Self.name: image], engine: nil, readsWith: .ppocr)
            let refused = await #expect(throws: BenchError.self) { try await other.process(bytes, file: Self.name) }
            #expect(refused?.message.contains(file.path) == true)
            #expect(refused?.message.contains("was read by tesseract, and this run reads with ppocr") == true)
        }
    }

    @Test("A page cached before the cache recorded engines is read as a page of the engine the run reads with")
    func anOlderCachedPageIsTheRunsEnginesPage() async throws {
        try await Self.withCache { cache, image in
            let page = try RecordedOCREngine.recordedPage(Self.name)
            let file = cache.directory.appendingPathComponent(Self.name + ".json")
            try JSONEncoder().encode(page).write(to: file)

            for engine in [OCREngineChoice.ppocr, .tesseract] {
                let cached = CachedOCREngine(cache: cache, images: [Self.name: image], engine: nil, readsWith: engine)
                let read = try await cached.process(try Data(contentsOf: image), file: Self.name)
                #expect(read.page == page && read.readBy == engine)
            }
        }
    }
}
