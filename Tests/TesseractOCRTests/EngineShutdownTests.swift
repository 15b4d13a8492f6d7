import Foundation
import PipelineCore
import TesseractOCR
import TestSupport
import Testing

/// `shutdown()` against a recognition in progress: it must wait for the recognition, never free the Tesseract
/// instance under it (that crashed `pipeline work` on SIGTERM, issue 14).
@Suite("Tesseract engine shutdown", .timeLimit(.minutes(1)))
struct EngineShutdownTests {
    @Test("shutdown during a recognition lets it finish: the call returns its page or says the engine is shut down")
    func shutdownDuringRecognition() async throws {
        let bytes = try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))
        for round in 0..<3 {
            let engine = try await TesseractEngine.make(options: TestEngines.defaultOptions, name: "shutdown-ocr")
            let reading = Task { try await engine.process(bytes, file: "sroie_006.jpg") }
            // Decoding takes tens of milliseconds, one recognition pass several hundred: land inside one.
            try await Task.sleep(for: .milliseconds(150 + 100 * round))
            await engine.shutdown()
            do {
                let page = try await reading.value.page
                #expect(page.lines.count > 10, "round \(round)")
            } catch let error as ImageError {
                // The shutdown came between two passes: the next one found the engine shut down.
                #expect(error.code == .engineUnavailable, "round \(round): \(error)")
            }
        }
    }
}
