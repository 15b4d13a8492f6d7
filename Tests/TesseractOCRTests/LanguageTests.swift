import Foundation
import PipelineCore
import ReceiptImage
import TesseractOCR
import Testing

/// `ocr.language` with several languages (`deu+fra+…`): the seven European models scripts/install-dependencies
/// installs load together, and a missing one is named with the package that brings it.
@Suite("Tesseract languages", .timeLimit(.minutes(1)))
struct LanguageTests {
    @Test("The seven European languages and English load as one engine")
    func severalLanguagesLoad() async throws {
        var options = TestEngines.defaultOptions
        options.language = "eng+deu+fra+spa+ita+nld+por+pol"
        try await TestEngines.withEngine(options) { _ in }
    }

    @Test("A language without its model names the missing file and its Debian package")
    func missingLanguageIsNamed() async throws {
        var options = TestEngines.defaultOptions
        options.language = "eng+xyz"
        do {
            try await TestEngines.withEngine(options) { _ in }
            Issue.record("an engine with a missing language started")
        } catch let error as ImageError {
            #expect(error.code == .engineUnavailable)
            #expect("\(error)".contains("xyz.traineddata"), "\(error)")
            #expect("\(error)".contains("tesseract-ocr-xyz"), "\(error)")
        }
    }
}
