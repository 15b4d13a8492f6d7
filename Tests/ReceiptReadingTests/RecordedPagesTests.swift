import Foundation
import PipelineCore
import ReceiptReading
import TestSupport
import Testing

/// The pages the OCR engine's fake serves (`RecordedOCREngine`) are what the real Tesseract reader reads from the same
/// shipped receipts today: the pipeline's logic tests run on the engine's real output, not on a guess of it.
@Suite struct RecordedPagesTests {
    @Test(arguments: RecordedOCREngine.recordedReceipts)
    func aRecordedPageIsWhatTesseractReads(_ name: String) async throws {
        let bytes = try Data(contentsOf: TestEnvironment.receipt(name))
        let read = try await ReceiptFiles.withReader { try await $0.process(bytes, file: name) }
        let recorded = try RecordedOCREngine.recordedPage(name)
        #expect(
            read.page == recorded,
            """
            \(name): Tesseract now reads another page than the one recorded in Tests/TestSupport/RecordedPages; if the \
            change is meant, record it again (Tests/TestSupport/README.md)
            """)
        #expect(read.page.text == recorded.text)
    }
}
