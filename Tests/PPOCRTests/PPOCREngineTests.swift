import Foundation
import PPOCR
import PipelineCore
import ReceiptBench
import TestSupport
import Testing

@testable import ReceiptImage

/// Real engine, real models (installed by `scripts/install-ppocr`, which `scripts/test` runs), real receipts.
@Suite("PP-OCR engine", .serialized)
struct PPOCREngineTests {
    /// A scan (SROIE, 1080×1527 color) and a small phone photo (WildReceipt, 338×450).
    static let receipts = ["sroie_030.jpg", "wr_28_14.jpeg"]

    @Test("Detection finds the total line on a scan and a photo: its box holds the labeled total", arguments: receipts)
    func findsTotalLine(_ name: String) async throws {
        let image = try PPOCRTestSupport.pixels(name)
        let total = try #require(try ReceiptLabel.of(name).total.flatMap { Decimal(string: $0) })
        let page = try await PPOCRTestSupport.withEngine { try await $0.read(image, file: name) }
        #expect(page.width == image.width && page.height == image.height)
        let totalLines = page.lines.filter {
            $0.text.lowercased().contains("total") && LabelPresence.containsAmount(total, in: $0.text)
        }
        let line = try #require(totalLines.first, "\(name): no line with 'total' and \(total) in:\n\(page.text)")
        // The box lies on the page and is one text line high.
        #expect(line.box.left >= 0 && line.box.right <= page.width && line.box.top >= 0)
        #expect(line.box.bottom <= page.height && line.box.width > line.box.height)
        #expect(line.box.height > 0 && line.box.height < page.height / 10)
        // The amount's word sits right of the word "total" on that line.
        let totalWord = try #require(line.words.first { $0.text.lowercased().contains("total") })
        let amountWord = try #require(line.words.last { LabelPresence.containsAmount(total, in: $0.text) })
        #expect(amountWord.box.left >= totalWord.box.right - 2)
    }

    @Test("The recognizer reads known lines of a scan exactly")
    func readsKnownLine() async throws {
        let image = try PPOCRTestSupport.pixels("sroie_030.jpg")
        let page = try await PPOCRTestSupport.withEngine { try await $0.read(image, file: "sroie_030.jpg") }
        let lines = page.lines.map(\.text)
        #expect(lines.contains("UNIHAKKA INTERNATIONAL SDN BHD"), "\(lines)")
        #expect(lines.contains("TAX INVOICE"), "\(lines)")
    }

    /// A long receipt, as tall as three scans one under the other (1080 × 4581), is read to its end: shrunk by its
    /// long side alone its text was a few pixels high and nothing was read.
    @Test("A long receipt is read to its end")
    func readsLongReceiptToItsEnd() async throws {
        let scan = try PPOCRTestSupport.pixels("sroie_030.jpg")
        let long = try #require(
            PixelImage(
                width: scan.width, height: scan.height * 3, channels: scan.channels,
                bytes: scan.bytes + scan.bytes + scan.bytes))

        let page = try await PPOCRTestSupport.withEngine { try await $0.read(long, file: "long.jpg") }

        let lines = page.lines.map(\.text)
        #expect(lines.filter { $0 == "UNIHAKKA INTERNATIONAL SDN BHD" }.count == 3, "\(lines)")
        #expect(lines.filter { $0 == "TAX INVOICE" }.count == 3, "\(lines)")
    }

    /// A receipt filling a third of a phone photo's width (a scan halved on a table, 1512 × 2016 as a 12 MP photo is
    /// decoded) is read as well as the scan: on the first look its text was a few pixels high on the detector's map
    /// and no more than a few lines were found; the closer look at the text's window finds the rest.
    @Test("A receipt filling a third of a photo is read")
    func readsReceiptFillingAThirdOfAPhoto() async throws {
        let scan = try PPOCRTestSupport.pixels("sroie_030.jpg")
        let photo = try PPOCRTestSupport.onTable(scan, width: 1512, height: 2016, origin: (x: 430, y: 700))

        let (onScan, onPhoto) = try await PPOCRTestSupport.withEngine {
            (try await $0.read(scan, file: "sroie_030.jpg"), try await $0.read(photo, file: "photo.jpg"))
        }

        let lines = onPhoto.lines.map(\.text)
        #expect(lines.contains("UNIHAKKA INTERNATIONAL SDN BHD"), "\(lines)")
        #expect(lines.contains("GST REG #000856195564"), "\(lines)")
        #expect(Double(onPhoto.lines.count) >= 0.9 * Double(onScan.lines.count), "\(lines)")
        #expect(onPhoto.lines.allSatisfy { $0.box.left >= 430 && $0.box.top >= 700 - 2 }, "\(lines)")
    }

    /// A JPEG is reduced inside the decoder by its long side, but a long receipt keeps what it needs across: a
    /// 1080 × 4581 scan is not halved to 540 px across, a 3024 × 4032 phone photo still is.
    @Test("A long receipt's JPEG keeps its width through the decoder")
    func longReceiptKeepsItsWidthThroughTheDecoder() {
        let needed = ImageProcessingOptions.defaults.targetLongSide
        #expect(
            LeptonicaImageLoader.jpegReduction(
                longSide: 4581, needed: needed, shortSide: 1080, neededAcross: ReceiptPixelDecoder.readableAcross) == 1)
        #expect(
            LeptonicaImageLoader.jpegReduction(
                longSide: 4032, needed: needed, shortSide: 3024, neededAcross: ReceiptPixelDecoder.readableAcross) == 2)
    }

    /// A scan turned a quarter either way or upside down is read upright: its lines read, the turn told, and its
    /// layout on the image as it came.
    @Test("A turned scan is read upright", arguments: [1, 2, 3])
    func readsTurnedPageUpright(quarterTurns: Int) async throws {
        let upright = try PPOCRTestSupport.pixels("sroie_030.jpg")
        let image = upright.turnedClockwise(quarterTurns: quarterTurns)

        let page = try await PPOCRTestSupport.withEngine { try await $0.read(image, file: "sroie_030.jpg") }

        let lines = page.lines.map(\.text)
        #expect(lines.contains("UNIHAKKA INTERNATIONAL SDN BHD"), "\(lines)")
        #expect(lines.contains("TAX INVOICE"), "\(lines)")
        #expect(page.quarterTurns == 4 - quarterTurns)
        #expect((page.width, page.height) == (upright.width, upright.height))
        let layout = OCRLayout(page: page)
        #expect((layout.width, layout.height) == (image.width, image.height))
        #expect(layout.lineBoxes.allSatisfy { $0.right <= image.width + 1 && $0.bottom <= image.height + 1 })
    }

    @Test("Words have no spaces, boxes on the page and confidences 0–100; lines run top to bottom")
    func wordsAndOrder() async throws {
        let image = try PPOCRTestSupport.pixels("sroie_030.jpg")
        let page = try await PPOCRTestSupport.withEngine { try await $0.read(image, file: "sroie_030.jpg") }
        #expect(page.lines.count > 15)
        #expect(page.meanConfidence > 80 && page.meanConfidence <= 100)
        #expect(page.quarterTurns == 0)
        for word in page.lines.flatMap(\.words) {
            #expect(!word.text.isEmpty && !word.text.contains(" "))
            #expect((0...100).contains(word.confidence))
            #expect(word.box.left >= 0 && word.box.right <= page.width + 1)
            #expect(word.box.top >= 0 && word.box.bottom <= page.height + 1)
        }
        for (previous, line) in zip(page.lines, page.lines.dropFirst()) {
            #expect(line.box.top + line.box.height / 2 > previous.box.top, "\(previous.text) / \(line.text)")
        }
        for line in page.lines {
            #expect(zip(line.words, line.words.dropFirst()).allSatisfy { $0.box.left < $1.box.left }, "\(line.text)")
        }
    }

    @Test("A blank page gives an empty page, not an error")
    func blankPage() async throws {
        let white = try #require(
            PixelImage(width: 800, height: 1000, channels: 3, bytes: [UInt8](repeating: 255, count: 800 * 1000 * 3)))
        let page = try await PPOCRTestSupport.withEngine { try await $0.read(white, file: "white") }
        #expect(page.lines.isEmpty)
        #expect(page.meanConfidence == 0)
        #expect(page.width == 800 && page.height == 1000)
    }

    @Test("PP-OCR pages are accepted by the extractor: a scan's total and date, a photo's date and a total")
    func extractorAcceptsPages() async throws {
        let pages = try await PPOCRTestSupport.withEngine { engine in
            try await (
                engine.read(PPOCRTestSupport.pixels("sroie_030.jpg"), file: "sroie_030.jpg"),
                engine.read(PPOCRTestSupport.pixels("wr_28_14.jpeg"), file: "wr_28_14.jpeg")
            )
        }
        let scan = ReceiptExtractor.extract(pages.0)
        #expect(scan.total?.value == Decimal(string: "8.20"), "\(pages.0.text)")
        #expect(scan.date?.value.description == "2018-03-05", "\(pages.0.text)")
        // The photo prints "Net Total: GBP 5.33" above its total; which one the rules take is the extractor's
        // business, that they read a total and the date from this page is the engine's.
        let photo = ReceiptExtractor.extract(pages.1)
        #expect(photo.total != nil, "\(pages.1.text)")
        #expect(LabelPresence.containsAmount(Decimal(string: "6.40")!, in: pages.1.text))
        #expect(photo.date?.value.description == "2018-03-12", "\(pages.1.text)")
    }

    @Test("A read past its deadline is stopped inside ONNX Runtime and reported as an OCR timeout")
    func deadline() async throws {
        let image = try PPOCRTestSupport.pixels("sroie_030.jpg")
        var settings = PPOCRTestSupport.settings
        settings.timeout = .milliseconds(1)
        let engine = try await PPOCREngine.make(settings: settings, name: "test-ppocr-deadline")
        let error = await #expect(throws: ImageError.self) { try await engine.read(image, file: "sroie_030.jpg") }
        await engine.shutdown()
        #expect(error?.code == .ocrTimedOut)
        #expect(error?.file == "sroie_030.jpg")
    }

    @Test("Cancelling the task stops the read with CancellationError")
    func cancellation() async throws {
        let image = try PPOCRTestSupport.pixels("sroie_030.jpg")
        try await PPOCRTestSupport.withEngine { engine in
            let task = Task { try await engine.read(image, file: "sroie_030.jpg") }
            try await Task.sleep(for: .milliseconds(50))
            task.cancel()
            await #expect(throws: CancellationError.self) { try await task.value }
            // The engine still reads afterwards.
            #expect(try await !engine.read(image, file: "sroie_030.jpg").lines.isEmpty)
        }
    }
}

@Suite("PP-OCR start")
struct PPOCRStartTests {
    /// A folder holding links to the installed files except `leaving`.
    static func folder(without leaving: String) throws -> URL {
        let folder = try TestEnvironment.makeTemporaryFolder("ppocr-missing")
        let installed = URL(fileURLWithPath: PPOCRTestSupport.settings.directory)
        for name in [PPOCRSettings.libraryName, PPOCRSettings.detectorModelName, PPOCRSettings.recognizerModelName]
        where name != leaving {
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent(name), withDestinationURL: installed.appendingPathComponent(name))
        }
        return folder
    }

    @Test(
        "A missing library or model file fails the start with one line naming it and the install command",
        arguments: [PPOCRSettings.libraryName, PPOCRSettings.detectorModelName, PPOCRSettings.recognizerModelName])
    func missingFile(_ name: String) async throws {
        var settings = PPOCRTestSupport.settings
        settings.directory = try Self.folder(without: name).path
        let error = await #expect(throws: ImageError.self) { try await PPOCREngine.make(settings: settings) }
        let message = try #require(error).description
        #expect(error?.code == .engineUnavailable)
        #expect(message.contains(settings.directory + "/" + name) && message.contains("is missing"), "\(message)")
        #expect(message.contains("scripts/install-ppocr") && !message.contains("\n"), "\(message)")
    }

    @Test("A damaged model file fails the start with ONNX Runtime's reason")
    func damagedModel() async throws {
        let folder = try Self.folder(without: PPOCRSettings.recognizerModelName)
        try Data("not a model".utf8).write(to: folder.appendingPathComponent(PPOCRSettings.recognizerModelName))
        var settings = PPOCRTestSupport.settings
        settings.directory = folder.path
        let error = await #expect(throws: ImageError.self) { try await PPOCREngine.make(settings: settings) }
        let message = try #require(error).description
        #expect(message.contains("CreateSession") && message.contains(PPOCRSettings.recognizerModelName), "\(message)")
        #expect(message.contains("scripts/install-ppocr"))
    }
}
