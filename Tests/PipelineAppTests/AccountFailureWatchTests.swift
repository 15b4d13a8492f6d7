import Foundation
import Logging
import PipelineCore
import Synchronization
import TestSupport
import Testing
import VisionLLM

@testable import PipelineApp

/// A refused key or spent quota warns a person once per run, however many receipts fail on it.
@Suite struct AccountFailureWatchTests {
    @Test(arguments: ["unauthorized", "quota"])
    func warnsOnceForManyReceiptsAndRemembersTheFailure(scenario: String) async throws {
        let server = try FakeProviderServer()
        let client = OpenAICompatibleClient(
            settings: VisionClientSettings(
                baseURL: server.baseURL(scenario), model: "test", apiKey: APIKey("sk-test-SECRET0123456789"),
                retries: 0),
            logger: Logger(label: "test"))
        let warnings = Mutex<[String]>([])
        let watch = AccountFailureWatch(watching: client) { line in warnings.withLock { $0.append(line) } }
        for index in 0..<3 {
            let request = VisionRequest(receipt: "receipt-\(index)", image: Data([0xFF]), ocrText: "TOTAL 1.00")
            await #expect(throws: VisionModelError.self) { _ = try await watch.readReceipt(request) }
        }
        let lines = warnings.withLock { $0 }
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("warning: the LLM account failed") == true)
        #expect(lines.first?.contains("SECRET0123456789") == false)
        #expect(watch.accountFailure?.isAccountFailure == true)
    }

    @Test func aServerFailureIsNotAnAccountFailure() async throws {
        let server = try FakeProviderServer()
        let client = OpenAICompatibleClient(
            settings: VisionClientSettings(
                baseURL: server.baseURL("server-error"), model: "test", apiKey: APIKey("sk-test"), retries: 0),
            logger: Logger(label: "test"))
        let warnings = Mutex<[String]>([])
        let watch = AccountFailureWatch(watching: client) { line in warnings.withLock { $0.append(line) } }
        let request = VisionRequest(receipt: "receipt-1", image: Data([0xFF]), ocrText: "TOTAL 1.00")
        await #expect(throws: VisionModelError.self) { _ = try await watch.readReceipt(request) }
        #expect(warnings.withLock { $0 }.isEmpty)
        #expect(watch.accountFailure == nil)
    }
}
