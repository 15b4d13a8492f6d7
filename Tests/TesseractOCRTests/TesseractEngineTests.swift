import Foundation
import PipelineCore
import ReceiptBench
import ReceiptImage
import TesseractOCR
import TestSupport
import Testing

@Suite("Tesseract engine")
struct TesseractEngineTests {
    /// The shipped real receipts (each has a `.json` label beside it).
    static let receipts = ["sroie_006.jpg", "wr_33_15.jpeg", "wr_28_14.jpeg"]

    @Test("The labeled total and merchant of a real scan appear in the OCR text, with boxes and confidences")
    func readsScan() async throws {
        let bytes = try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))
        let label = try ReceiptLabel.of("sroie_006.jpg")
        let result = try await TestEngines.withEngine { try await $0.process(bytes, file: "sroie_006.jpg") }
        let page = result.page

        let total = try #require(label.total.flatMap { Decimal(string: $0) })
        #expect(LabelPresence.containsAmount(total, in: page.text))
        #expect(LabelPresence.containsMerchant(try #require(label.merchant), in: page.text))
        #expect(page.lines.count > 10)
        #expect(page.meanConfidence > 50 && page.meanConfidence <= 100)
        // The scan is 457×1170: below `minLongSide`, so it is enlarged.
        #expect(max(page.width, page.height) == TestEngines.defaultOptions.ocrLongSide(for: 1170))
        #expect(max(page.width, page.height) > 1170)
        for word in page.lines.flatMap(\.words) {
            #expect(!word.text.isEmpty && !word.text.contains(" "))
            #expect((0...100).contains(word.confidence))
            #expect(word.box.left >= 0 && word.box.right <= page.width)
            #expect(word.box.top >= 0 && word.box.bottom <= page.height)
        }
        // Reading order: each line starts below the previous line's top, and its words run left to right.
        for (previous, line) in zip(page.lines, page.lines.dropFirst()) {
            #expect(line.box.top > previous.box.top)
        }
        for line in page.lines {
            #expect(zip(line.words, line.words.dropFirst()).allSatisfy { $0.box.left < $1.box.left })
        }
    }

    @Test("Every shipped receipt's labeled total is found in its OCR text", arguments: receipts)
    func labeledTotals(_ name: String) async throws {
        let bytes = try Data(contentsOf: TestEnvironment.receipt(name))
        let total = try #require(try ReceiptLabel.of(name).total.flatMap { Decimal(string: $0) })
        let page = try await TestEngines.withEngine { try await $0.process(bytes, file: name).page }
        #expect(LabelPresence.containsAmount(total, in: page.text), "\(name): \(total) not in:\n\(page.text)")
    }

    @Test("The LLM copy is a JPEG capped at the configured long side, with bytes before and after recorded")
    func compresses() async throws {
        let bytes = try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))
        var options = TestEngines.defaultOptions
        options.compressLongSide = 800
        let result = try await TestEngines.withEngine(options) { try await $0.process(bytes, file: "sroie_006.jpg") }
        let size = try #require(JPEGSize.of(result.compressedJPEG))
        #expect(max(size.width, size.height) == 800)
        #expect(result.originalBytes == bytes.count)
        #expect(result.compressedBytes == result.compressedJPEG.count && result.compressedBytes < bytes.count)
        #expect(result.format == .jpeg)
        #expect(result.timings.stages.map(\.stage) == [.decode, .normalize, .ocr, .compress])
        #expect(result.timings.duration(of: .ocr) > .zero && result.timings.duration(of: .decode) > .zero)
        let stages = result.timings.stages
        #expect(zip(stages, stages.dropFirst()).allSatisfy { $0.startedAt <= $1.startedAt })
    }

    @Test("EXIF orientation turns the page upright before OCR")
    func appliesOrientation() async throws {
        let upright = try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))
        let turned = GeneratedImages.withExifOrientation(upright, orientation: 6)
        let sizes = try await TestEngines.withEngine { engine in
            try await [upright, turned].asyncMap { bytes in
                try #require(GeneratedImages.pngSize(try await engine.normalizedPNG(bytes, file: "receipt.jpg")))
            }
        }
        #expect(sizes[0].width == sizes[1].height && sizes[0].height == sizes[1].width)
        #expect(sizes[0].width != sizes[0].height)
    }

    @Test(
        "Small pages are enlarged to the minimum long side, big ones shrunk to the target, others read as they are",
        arguments: [(300, 200, 1200, 800), (1400, 1000, 1400, 1000), (2400, 1800, 1600, 1200)])
    func scalesIntoRange(_ width: Int, _ height: Int, _ expectedWidth: Int, _ expectedHeight: Int) async throws {
        let image = GeneratedImages.grayPNG(width: width, height: height) { x, _ in x % 20 < 10 ? 0 : 255 }
        var options = TestEngines.defaultOptions
        (options.minLongSide, options.targetLongSide) = (1200, 1600)
        let size = try await TestEngines.withEngine(options) { engine in
            try #require(GeneratedImages.pngSize(try await engine.normalizedPNG(image, file: "page.png")))
        }
        #expect(size.width == expectedWidth && size.height == expectedHeight)
    }

    @Test("A PNG with a damaged text chunk still decodes (the chunk is skipped)")
    func skipsDamagedAncillaryChunk() async throws {
        let png = GeneratedImages.withDamagedTextChunk(
            GeneratedImages.grayPNG(width: 1300, height: 500) { x, _ in x % 20 < 10 ? 0 : 255 })
        let size = try await TestEngines.withEngine { engine in
            try #require(GeneratedImages.pngSize(try await engine.normalizedPNG(png, file: "annotated.png")))
        }
        #expect(size.width == 1300 && size.height == 500)
    }

    @Test("The second pass re-reads strips around uncertain lines and adds their lines in page coordinates")
    func secondPass() async throws {
        // A photo whose first pass shows neither a date nor a total line.
        let bytes = try Data(contentsOf: TestEnvironment.receipt("wr_28_14.jpeg"))
        var onePass = TestEngines.defaultOptions
        onePass.secondPassSegmentation = 0
        let first = try await TestEngines.withEngine(onePass) {
            try await $0.process(bytes, file: "wr_28_14.jpeg").page
        }
        try #require(SecondPassPolicy.needsSecondPass(first.text))
        let page = try await TestEngines.withEngine { try await $0.process(bytes, file: "wr_28_14.jpeg").page }

        #expect(Array(page.lines.prefix(first.lines.count)) == first.lines)
        let reread = page.lines.dropFirst(first.lines.count)
        #expect(!reread.isEmpty)
        let strips = SecondPassPolicy.stripsToReread(
            in: first, belowConfidence: TestEngines.defaultOptions.secondPassConfidence)
        for line in reread {
            #expect(
                strips.contains {
                    $0.top <= line.box.top && line.box.bottom <= $0.bottom && line.box.right <= $0.right
                },
                "\(line.text) at \(line.box) lies outside every strip \(strips)")
        }
    }

    @Test("On a small photo the header pass re-reads the page top: its lines lie there and hold the merchant's name")
    func headerPass() async throws {
        // A 356×450 photo, enlarged for OCR, with the name printed large at the top.
        let name = "wr_33_15.jpeg"
        let bytes = try Data(contentsOf: TestEnvironment.receipt(name))
        let merchant = try #require(try ReceiptLabel.of(name).merchant)
        var withoutHeader = TestEngines.defaultOptions
        withoutHeader.headerSegmentation = 0

        let page = try await TestEngines.withEngine { try await $0.process(bytes, file: name).page }
        let plain = try await TestEngines.withEngine(withoutHeader) { try await $0.process(bytes, file: name).page }

        try #require(!page.headerLines.isEmpty)
        // In page coordinates, within the top `headerShare` (and 1% of the height for a box at the cut).
        let bottom = Int(Double(page.height) * (TestEngines.defaultOptions.headerShare + 0.01))
        for line in page.headerLines {
            for box in [line.box] + line.words.map(\.box) {
                #expect(box.left >= 0 && box.top >= 0 && box.right <= page.width, "\(line.text) at \(box)")
                #expect(box.bottom <= bottom, "\(line.text) at \(box) is below the page top (\(bottom) px)")
            }
        }
        let headerText = page.headerLines.map(\.text).joined(separator: "\n")
        #expect(LabelPresence.containsMerchant(merchant, in: headerText), "\(merchant) not in:\n\(headerText)")
        #expect(plain.headerLines.isEmpty)
        // The header pass leaves the page's own reading as it was.
        #expect(plain.lines == page.lines)
    }

    @Test("A scan read at its own size gets no header pass")
    func noHeaderPassOnScans() async throws {
        // 1080×1527: between `minLongSide` and `targetLongSide`, so read as it is.
        let name = "sroie_030.jpg"
        let bytes = try Data(contentsOf: TestEnvironment.receipt(name))

        let page = try await TestEngines.withEngine { try await $0.process(bytes, file: name).page }

        #expect(!page.lines.isEmpty)
        #expect(page.headerLines.isEmpty)
    }

    @Test("A deadline shorter than the recognition stops Tesseract with a retryable timeout")
    func deadline() async throws {
        let bytes = try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))
        var options = TestEngines.defaultOptions
        options.timeout = .milliseconds(1)
        try await TestEngines.withEngine(options) { engine in
            let error = await #expect(throws: ImageError.self) { try await engine.process(bytes, file: "slow.jpg") }
            #expect(error?.code == .ocrTimedOut)
            #expect(error?.isRetryable == true)
            #expect(error?.description.hasPrefix("slow.jpg: ocr failed") == true)
        }
    }

    @Test("Cancelling the task stops the OCR with CancellationError and leaves the engine usable")
    func cancellation() async throws {
        let bytes = try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))
        try await TestEngines.withEngine { engine in
            let task = Task { try await engine.process(bytes, file: "cancelled.jpg") }
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            let page = try await engine.process(bytes, file: "after.jpg").page
            #expect(!page.lines.isEmpty)
        }
    }

    @Test("A pool of two engines gives the same text as one engine, concurrently")
    func pool() async throws {
        let bytes = try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))
        let small = GeneratedImages.grayPNG(width: 400, height: 300) { x, y in (x / 8 + y / 8) % 2 == 0 ? 0 : 255 }
        let inputs = [bytes, small, bytes, small]
        let serial = try await TestEngines.withEngine { engine in
            try await [bytes, small].asyncMap { try await engine.process($0, file: "serial").page.text }
        }
        let pool = try await TesseractEnginePool.make(count: 2, options: TestEngines.defaultOptions)
        let concurrent = try await withThrowingTaskGroup(of: (Int, String).self) { group in
            for (index, input) in inputs.enumerated() {
                group.addTask { (index, try await pool.process(input, file: "pooled-\(index)").page.text) }
            }
            return try await group.reduce(into: [Int: String]()) { $0[$1.0] = $1.1 }
        }
        await pool.shutdown()
        #expect(await pool.count == 2)
        for index in inputs.indices { #expect(concurrent[index] == serial[index % 2]) }
    }
}

extension Array {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
