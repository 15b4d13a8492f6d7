import DatabaseTestSupport
import Foundation
import Logging
import PipelineCore
import PostgresStore
import TestSupport
import Testing

@testable import PipelineApp

/// A worker's completed attempt whose lease passed to another worker before its result was settled: the result is
/// dropped, the LLM calls it made stay charged to the receipt. Real PostgreSQL and queue, the worker's own job
/// handler, the fake LLM server; the OCR page is the one Tesseract recorded for the receipt.
@Suite struct LostLeaseCallsTests {
    @Test func aDroppedResultLeavesItsLLMCallsChargedToTheReceipt() async throws {
        let server = try FakeProviderServer()
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = CommandLineTests.environment(database: url)
            let ingest = try runPipeline(
                ["ingest", TestEnvironment.receipt("sroie_006.jpg").path], environment: environment)
            #expect(ingest.status == 0, "\(ingest.standardError)")

            var configuration = PipelineConfiguration()
            configuration.llm.provider = .openai
            configuration.llm.baseURL = server.baseURL("good").absoluteString
            let logger = Logger(label: "test")
            let vision = try VisionModelFactory.makeVisionModel(
                configuration: configuration.llm, environment: ["OPENAI_API_KEY": "sk-test-not-a-secret"],
                logger: logger)
            let ocr = try RecordedOCREngine.shipped(["sroie_006.jpg"], readsWith: .tesseract)
            let queue = PostgresWorkQueue(
                target: PostgresTarget(url), retryPolicy: RetryPolicy(base: .milliseconds(10), cap: .seconds(1)),
                logger: logger)
            let database = PostgresDatabase(
                target: PostgresTarget(url), migrator: Migrator(directory: TestDatabase.migrations), logger: logger)
            let worker = UUID()
            let job = try #require(try await queue.claim(limit: 1, owner: worker, lease: .seconds(600)).first)

            let completion = try await database.session(label: "test-worker") { session in
                let processor = ReceiptProcessor(
                    pipeline: PipelineFactory.makePipeline(configuration: configuration, ocr: ocr, vision: vision),
                    source: session.receiptSource, attempts: session.attempts, logger: logger)
                return try await processor.handle(job)
            }
            // Another worker holds the lease now: settling this result changes nothing.
            let report = try await queue.settle(
                [JobSettlement(job: job, outcome: .completed(completion.writes))], owner: UUID())
            await queue.close()

            #expect(report.lost == [job.id])
            #expect(try await connection.query("SELECT count(*)::int AS n FROM expenses").first?.int("n") == 0)
            let receipt = try await connection.query("SELECT llm_calls_used FROM receipts").first
            #expect(try receipt?.int("llm_calls_used") == 1)
            let calls = try await connection.query("SELECT job_id, attempt, calls, outcome FROM llm_calls")
            #expect(try calls.map { try $0.int("job_id") } == [Int(job.id)])
            #expect(try calls.map { try $0.int("calls") } == [1])
            #expect(try await server.requests(at: URL(string: configuration.llm.baseURL)!).count == 1)
        }
    }
}
