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

        let pages = try PDFPages.split(pdf, file: "two.pdf", options: ReceiptFiles.options)
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
