import Foundation
import Logging
import PipelineCore
import TestSupport
import Testing
import VisionLLM

/// Prints the CPU time the process uses while vision calls are in flight: 10 concurrent calls that the fake server
/// answers after 5 seconds. A measurement, not an assertion on speed (target ≤ 0.05 s; see `docs/llm.md`).
///
/// Run alone for a clean figure: `scripts/test --filter WaitingCPUBenchmark`.
@Suite("Vision LLM waiting CPU (benchmark)")
struct WaitingCPUBenchmark {
    /// User plus system CPU seconds of this process so far.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec)
            + Double(usage.ru_stime.tv_usec) / 1e6
    }

    @Test func printsCPUSecondsDuringTenConcurrentFiveSecondCalls() async throws {
        let server = try FakeProviderServer()
        let image = try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))
        let clients = (0..<10).map { _ in
            OpenAICompatibleClient(
                settings: VisionClientSettings(
                    baseURL: server.baseURL("wait-5"), model: "bench", apiKey: APIKey("sk-bench"), retries: 0),
                logger: Logger(label: "bench"))
        }
        // One call first, so connection set-up and the client's first use are not counted as waiting.
        _ = try await OpenAICompatibleClient(
            settings: VisionClientSettings(baseURL: server.baseURL("good"), model: "bench", apiKey: APIKey("sk-bench")),
            logger: Logger(label: "bench")
        ).readReceipt(VisionRequest(receipt: "warm-up", image: image, ocrText: FakeProviderServer.goodReceiptOCR))

        let cpuBefore = Self.processCPUSeconds()
        let clock = ContinuousClock()
        let started = clock.now
        let replies = try await withThrowingTaskGroup(of: VisionReply.self) { group in
            for (index, client) in clients.enumerated() {
                group.addTask {
                    try await client.readReceipt(
                        VisionRequest(
                            receipt: "bench-\(index)", image: image, ocrText: FakeProviderServer.goodReceiptOCR))
                }
            }
            return try await group.reduce(into: [VisionReply]()) { $0.append($1) }
        }
        let wall = started.duration(to: clock.now)
        let cpu = Self.processCPUSeconds() - cpuBefore
        #expect(replies.count == 10)
        print(
            String(
                format:
                    "llm waiting CPU: %.3f s of CPU during 10 concurrent 5 s calls (%d byte image each), wall %.2f s",
                cpu, image.count, wall.seconds))
    }
}
