import Foundation
import Logging
import PipelineCore
import TestSupport
import Testing

@testable import VisionLLM

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Prints the stage's own overhead per receipt, provider time excluded: request build with the base64 image,
/// then repair, read and amount guard of a recorded reply. A measurement, not an assertion on speed.
@Suite("Vision LLM stage overhead (benchmark)")
struct StageOverheadBenchmark {
    @Test func printsOverheadPercentiles() throws {
        let jpeg = try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))
        let request = VisionRequest(receipt: "sroie_006", image: jpeg, ocrText: FakeProviderServer.goodReceiptOCR)
        let settings = VisionClientSettings(
            baseURL: URL(string: "http://127.0.0.1:9/v1")!, model: "bench", apiKey: APIKey("sk-bench"))
        let openAI = OpenAICompatibleClient(settings: settings, logger: Logger(label: "bench"))
        let anthropic = AnthropicClient(settings: settings, logger: Logger(label: "bench"))
        let truncatedReply = String(FakeProviderServer.goodReceipt.prefix(400))
        var samples: [Duration] = []
        let clock = ContinuousClock()
        for round in 0..<200 {
            let elapsed = clock.measure {
                let http =
                    round.isMultiple(of: 2)
                    ? openAI.makeHTTPRequest(for: request, maxTokens: 4096)
                    : anthropic.makeHTTPRequest(for: request, maxTokens: 4096)
                let reply = round.isMultiple(of: 5) ? truncatedReply : FakeProviderServer.goodReceipt
                let extraction = LLMExtraction(
                    replyText: reply, providerReportedTruncation: round.isMultiple(of: 5))
                #expect(http.body.count > jpeg.count)
                #expect(extraction.receipt != nil)
            }
            samples.append(elapsed)
        }
        samples.sort()
        func milliseconds(_ duration: Duration) -> String {
            String(format: "%.2f ms", duration.fractionalMilliseconds)
        }
        print(
            """
            llm stage overhead (\(samples.count) rounds, \(jpeg.count) byte JPEG): \
            p50 \(milliseconds(samples[samples.count / 2])), p95 \(milliseconds(samples[samples.count * 95 / 100])), \
            max \(milliseconds(samples[samples.count - 1]))
            """)
    }
}
