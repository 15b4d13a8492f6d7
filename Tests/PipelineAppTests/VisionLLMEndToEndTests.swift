import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// `pipeline work` with the vision LLM enabled, against the fake OpenAI-compatible server on 127.0.0.1.
@Suite struct VisionLLMEndToEndTests {
    private func environment(_ url: String, baseURL: URL?) -> [String: String] {
        var environment = CommandLineTests.environment(database: url)
        environment["PIPELINE_LLM_PROVIDER"] = "openai"
        environment["PIPELINE_LLM_RETRIES"] = "0"
        if let baseURL { environment["PIPELINE_LLM_BASE_URL"] = baseURL.absoluteString }
        environment["OPENAI_API_KEY"] = "sk-test-not-a-secret"
        return environment
    }

    @Test func amountsTheReceiptDoesNotShowAreFlaggedAndTheExpenseGoesToReview() async throws {
        let server = try FakeProviderServer()
        let baseURL = server.baseURL("good")
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = environment(url, baseURL: baseURL)
            let receipt = TestEnvironment.receipt("sroie_006.jpg").path
            #expect(try runPipeline(["ingest", receipt], environment: environment).status == 0)
            let work = try runPipeline(["work", "--drain"], environment: environment)
            #expect(work.status == 0, "\(work.standardError)")

            // The fake replies with a café receipt: none of its amounts is printed on this hardware-store scan.
            let row = try await connection.query(
                """
                SELECT status, extraction_source, findings::text AS findings, total::text AS total, llm_calls,
                       llm_input_tokens, llm_output_tokens, ocr_text FROM expenses
                """
            ).first
            #expect(try row?.string("status") == "needs_review")
            // Nothing of the café reply is printed on this receipt, so no field of it was taken.
            #expect(try row?.string("extraction_source") == "rules")
            #expect(try row?.string("findings")?.contains("not in the OCR text") == true)
            #expect(try row?.string("total").flatMap { Decimal(string: $0) } != Decimal(string: "15.35"))
            #expect(try row?.int("llm_calls") == 1)
            #expect(try row?.int("llm_input_tokens") == 1200)
            #expect(try row?.int("llm_output_tokens") == 180)
            let requests = try await server.requests(at: baseURL)
            #expect(requests.count == 1)
            let stats = try runPipeline(["stats"], environment: environment)
            #expect(stats.standardOutput.contains("LLM: 1 calls, 1200 tokens in, 180 out"))
            #expect(!stats.standardOutput.contains("sk-test-not-a-secret"))
            #expect(!work.standardError.contains("sk-test-not-a-secret"))
        }
    }

    @Test func missingAPIKeyStopsWorkAtStartNamingTheVariable() async throws {
        try await TestDatabase.withMigratedDatabase { _, url in
            var environment = environment(url, baseURL: nil)
            environment["OPENAI_API_KEY"] = nil
            let work = try runPipeline(["work", "--drain"], environment: environment)
            #expect(work.status == 2)
            #expect(work.standardError.contains("OPENAI_API_KEY"))
        }
    }

    @Test func aRefusedKeyWarnsOncePerRunAndWorkExitsOne() async throws {
        let server = try FakeProviderServer()
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = environment(url, baseURL: server.baseURL("unauthorized"))
            let receipts = ["sroie_006.jpg", "wr_13_10.jpeg"].map { TestEnvironment.receipt($0).path }
            #expect(try runPipeline(["ingest"] + receipts, environment: environment).status == 0)
            let work = try runPipeline(["work", "--drain"], environment: environment)

            #expect(work.status == 1, "\(work.standardError)")
            let warnings = work.standardError.split(separator: "\n").filter {
                $0.hasPrefix("warning: the LLM account failed")
            }
            #expect(warnings.count == 1, "\(work.standardError)")
            #expect(warnings.first?.contains(/\(authentication\): receipt \d+ \(/) == true, "\(work.standardError)")
            #expect(!work.standardError.contains("receipt receipt"), "\(work.standardError)")
            #expect(!work.standardError.contains("sk-test-not-a-secret"))
            let statuses = try await connection.query("SELECT status FROM expenses").map { try $0.string("status") }
            #expect(statuses == ["needs_review", "needs_review"])
        }
    }
}
