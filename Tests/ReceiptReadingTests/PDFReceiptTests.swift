import Foundation
import PipelineCore
import ReceiptImage
import ReceiptReading
import TestSupport
import Testing

/// PDFs as people have them: born-digital (read from the text layer, no OCR) and scanned (rendered, then OCR), one
/// receipt per file or per page, and the ones refused with a line that names the file and the way out.
@Suite("PDF receipts")
struct PDFReceiptTests {
    @Test func bornDigitalPDFIsReadFromItsTextLayerWithTheLabelsKeyFields() async throws {
        let label = try ReceiptLabel.of("sroie_006.jpg")
        let pdf = try ReceiptFiles.bornDigitalPDF("sroie_006.jpg", rawDate: "11/01/2019")

        let read = try await ReceiptFiles.withReader { try await $0.process(pdf, file: "invoice.pdf") }

        #expect(read.pageSource == .pdfText)
        #expect(read.format == .pdf)
        #expect(read.timings.duration(of: .ocr) == .zero, "no OCR ran")
        let lines = read.page.lines.map(\.text)
        #expect(lines.first == label.merchant)
        #expect(lines.contains("TOTAL 327.00"), "\(lines)")
        #expect(lines.contains("Date: 11/01/2019 10:42"), "\(lines)")
        let draft = ReceiptExtractor.extract(read.page)
        #expect(draft.total?.value == Decimal(string: label.total ?? ""))
        #expect(draft.date?.value.description == label.date)
        #expect(read.compressedJPEG.prefix(3) == Data([0xFF, 0xD8, 0xFF]))
    }

    @Test func wordsAndBoxesFollowTheLayout() throws {
        let page = try #require(
            try PDFPages.textPage(
                TestPDF.document([TestPDF.receiptPage(merchant: "CAFE", lines: [("Latte", "3.50"), ("TOTAL", "3.50")])]
                ),
                file: "cafe.pdf", options: ReceiptFiles.options))

        #expect(page.lines.map(\.text) == ["CAFE", "Latte 3.50", "TOTAL 3.50"])
        let latte = page.lines[1].words
        // 227 pt at 300 dpi; the amount flush right, 10 pt from the edge.
        #expect(page.width == Int(227.0 * 300 / 72))
        #expect(latte[1].box.left > latte[0].box.right + page.width / 2)
        #expect(abs(latte[1].box.right - (page.width - Int(10.0 * 300 / 72))) < 8)
    }

    @Test func scannedPDFIsRenderedAndReadLikeTheJPEG() async throws {
        let jpeg = try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))
        let pdf = try TestFiles.scannedPDF("sroie_006.jpg")

        let (fromJPEG, fromPDF) = try await ReceiptFiles.withReader { reader in
            (try await reader.process(jpeg, file: "sroie_006.jpg"), try await reader.process(pdf, file: "scan.pdf"))
        }

        #expect(fromPDF.pageSource == .ocr)
        #expect(fromPDF.format == .pdf)
        #expect(fromPDF.timings.duration(of: .ocr) > .zero)
        let jpegDraft = ReceiptExtractor.extract(fromJPEG.page)
        let pdfDraft = ReceiptExtractor.extract(fromPDF.page)
        #expect(pdfDraft.total?.value == jpegDraft.total?.value)
        #expect(pdfDraft.date?.value == jpegDraft.date?.value)
        #expect(TextSimilarity.similarity(fromPDF.page.text, fromJPEG.page.text) > 0.9)
    }

    @Test func twoPagesAreOneReceiptInOrderOrOneReceiptEach() throws {
        let pdf = TestPDF.document([
            TestPDF.receiptPage(merchant: "FIRST SHOP", lines: [("TOTAL", "1.00")]),
            TestPDF.receiptPage(merchant: "SECOND SHOP", lines: [("TOTAL", "2.00")]),
        ])

        let whole = try #require(try PDFPages.textPage(pdf, file: "two.pdf", options: ReceiptFiles.options))
        #expect(whole.lines.map(\.text) == ["FIRST SHOP", "TOTAL 1.00", "SECOND SHOP", "TOTAL 2.00"])

        let pages = try PDFPages.split(pdf, into: [0...0, 1...1], file: "two.pdf", options: ReceiptFiles.options)
        #expect(pages.count == 2)
        let texts = try pages.map {
            try #require(try PDFPages.textPage($0, file: "page.pdf", options: ReceiptFiles.options)).text
        }
        #expect(texts == ["FIRST SHOP\nTOTAL 1.00", "SECOND SHOP\nTOTAL 2.00"])
    }

    @Test func twoScannedPagesAreRenderedOneBelowTheOther() throws {
        let jpeg = try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))
        let twoPages = try TestFiles.convert(jpeg, named: "a.jpg", with: "img2pdf", ["INPUT", "INPUT", "-o", "OUTPUT"])
        let one = try PDFPages.render(
            try TestFiles.scannedPDF("sroie_006.jpg"), file: "one.pdf", options: ReceiptFiles.options)
        let two = try PDFPages.render(twoPages, file: "two.pdf", options: ReceiptFiles.options)
        #expect(two.width == one.width)
        #expect(abs(two.height - 2 * one.height) <= 2)
    }

    @Test func pagesOfDifferentShapesStackedStayWithinThePixelLimit() throws {
        // A tall page and a wide one: their areas fit the limit, the image they stack into (as wide as the wide one,
        // as tall as both) does not unless the scale counts it.
        let pdf = TestPDF.emptyPages(sizes: [(200, 2000), (2000, 200)])
        var options = ReceiptFiles.options
        options.maxPixels = 4_000_000
        let stacked = try PDFPages.render(pdf, file: "shapes.pdf", options: options)
        #expect(stacked.width * stacked.height <= options.maxPixels, "\(stacked.width)×\(stacked.height)")
    }

    @Test(arguments: [OCREngineChoice.tesseract, .ppocr])
    func everyPageOfAReceiptOfSeveralIsAsLegibleAsAOnePageReceipt(engine: OCREngineChoice) async throws {
        let scans = (
            one: try TestFiles.scannedPDF("sroie_006.jpg"),
            three: try TestFiles.scannedPDF(pages: Array(repeating: "sroie_006.jpg", count: 3))
        )
        let typed = (
            one: TestPDF.document([TestPDF.receiptPage(merchant: "SHOP", lines: [("TOTAL", "1.00")])]),
            three: TestPDF.document(
                Array(repeating: TestPDF.receiptPage(merchant: "SHOP", lines: [("TOTAL", "1.00")]), count: 3))
        )
        let copies = try await ReceiptFiles.withReader(engine: engine) { reader in
            var sizes: [(one: (width: Int, height: Int)?, three: (width: Int, height: Int)?)] = []
            for pair in [scans, typed] {
                let one = try await reader.process(pair.one, file: "one.pdf").compressedJPEG
                let three = try await reader.process(pair.three, file: "three.pdf").compressedJPEG
                sizes.append((JPEGSize.of(one), JPEGSize.of(three)))
            }
            return sizes
        }
        // The review page's and the LLM's copy: three pages one below the other, each the size of a one-page copy.
        for copy in copies {
            let one = try #require(copy.one)
            let three = try #require(copy.three)
            #expect(abs(three.width - one.width) <= 1, "\(one) \(three)")
            #expect(abs(three.height - 3 * one.height) <= 3, "\(one) \(three)")
        }
    }

    @Test func anEncryptedPDFIsRefusedWithTheWayOut() throws {
        let pdf = try TestFiles.encrypted(try ReceiptFiles.bornDigitalPDF("sroie_006.jpg", rawDate: "11/01/2019"))
        let error = try #require(throws: ImageError.self) {
            try PDFPages.check(pdf, file: "locked.pdf", options: ReceiptFiles.options)
        }
        #expect(error.code == .encrypted)
        #expect(error.isPermanent)
        #expect(error.description.contains("locked.pdf"))
        #expect(error.description.contains("qpdf --decrypt"))
    }

    @Test func aPDFDeclaringTenThousandPagesIsRefusedBeforeAnyIsRead() throws {
        let error = try #require(throws: ImageError.self) {
            try PDFPages.check(TestPDF.emptyPages(10_000), file: "batch.pdf", options: ReceiptFiles.options)
        }
        #expect(error.code == .tooManyPages)
        #expect(error.description.contains("10000 pages"))
        #expect(error.description.contains("pdf.maxPages"))
    }

    @Test func aPageOf20000PointsSquareIsNotRendered() throws {
        let pdf = TestPDF.emptyPages(1, width: 20_000, height: 20_000)
        let error = try #require(throws: ImageError.self) {
            try PDFPages.render(pdf, file: "poster.pdf", options: ReceiptFiles.options)
        }
        #expect(error.code == .pageTooLarge)
        #expect(error.description.contains("poster.pdf"))
        #expect(error.description.contains("20000×20000 pt"))
    }

    @Test func aDamagedPDFIsRefusedAsDamaged() throws {
        let pdf = try ReceiptFiles.bornDigitalPDF("sroie_006.jpg", rawDate: "11/01/2019")
        let error = try #require(throws: ImageError.self) {
            try PDFPages.check(
                Data("%PDF-1.4\n".utf8) + pdf.dropFirst(400).prefix(100), file: "cut.pdf", options: ReceiptFiles.options
            )
        }
        #expect(error.code == .corrupt)
        #expect(error.description.contains("cut.pdf"))
    }

    @Test func aMissingPDFiumSaysHowToInstallIt() throws {
        var options = ReceiptFiles.options
        options.pdfLibrary = "/nonexistent/libpdfium.so"
        let error = try #require(throws: ImageError.self) {
            try PDFPages.check(TestPDF.emptyPages(1), file: "a.pdf", options: options)
        }
        #expect(error.code == .pdfUnavailable)
        #expect(error.isRetryable)
        #expect(error.description.contains("scripts/install-pdfium"))
    }
}
