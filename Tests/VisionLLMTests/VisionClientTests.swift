import Foundation
import JSONRepair
import Logging
import PipelineCore
import TestSupport
import Testing
import VisionLLM

/// The clients against a fake provider on 127.0.0.1: requests, replies, retries, classification, deadline.
@Suite("Vision LLM clients")
struct VisionClientTests {
    static let apiKey = "sk-test-SECRET0123456789abcdef"
    let server: FakeProviderServer
    let receipt = VisionRequest(
        receipt: "receipt-7", image: Data(repeating: 0xFF, count: 2048), ocrText: FakeProviderServer.goodReceiptOCR)

    init() throws {
        server = try FakeProviderServer()
    }

    func settings(_ baseURL: URL, timeout: Duration = .seconds(30)) -> VisionClientSettings {
        var settings = VisionClientSettings(
            baseURL: baseURL, model: "test-model", apiKey: APIKey(Self.apiKey), maxTokens: 1000, retries: 2,
            timeout: timeout)
        settings.backoffBase = .milliseconds(10)
        return settings
    }

    func openAI(_ scenario: String, timeout: Duration = .seconds(30)) -> (OpenAICompatibleClient, URL) {
        let url = server.baseURL(scenario)
        return (OpenAICompatibleClient(settings: settings(url, timeout: timeout), logger: Logger(label: "test")), url)
    }

    func anthropic(_ scenario: String) -> (AnthropicClient, URL) {
        let url = server.baseURL(scenario)
        return (AnthropicClient(settings: settings(url), logger: Logger(label: "test")), url)
    }

    func error(from body: () async throws -> VisionReply) async -> VisionModelError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error as? VisionModelError
        }
    }

    // MARK: Requests and good replies

    @Test func sendsTheDocumentedOpenAIRequestAndReadsTheReply() async throws {
        let (client, url) = openAI("good")
        let reply = try await client.readReceipt(receipt)
        #expect(reply.calls == 1)
        #expect(reply.usage == TokenUsage(inputTokens: 1200, outputTokens: 180))
        #expect(!reply.wasTruncated)
        let extraction = LLMExtraction(
            replyText: reply.text, providerReportedTruncation: reply.wasTruncated)
        #expect(extraction.receipt?.amount == Decimal(string: "15.35"))
        #expect(extraction.receipt?.items.count == 2)
        #expect(extraction.fieldIssues.isEmpty && !extraction.wasTruncated)

        let request = try #require(try await server.requests(at: url).first)
        #expect(request["headers"]?["authorization"] == .string("Bearer " + Self.apiKey))
        let body = try #require(request["body"])
        #expect(body["temperature"] == .number("0.1"))
        #expect(body["max_completion_tokens"] == .number("1000"))
        #expect(body["max_tokens"] == nil)
        #expect(body["response_format"]?["type"] == .string("json_schema"))
        #expect(body["response_format"]?["json_schema"]?["strict"] == .bool(true))
        let content = try #require(body["messages"]?.elements?.first?["content"]?.elements)
        let image = try #require(content.first { $0["type"] == .string("image_url") })
        #expect(image["image_url"]?["url"]?.stringValue?.hasPrefix("data:image/jpeg;base64,/////") == true)
        let text = try #require(content.first { $0["type"] == .string("text") }?["text"]?.stringValue)
        #expect(text.contains("TOTAL              15.35"))
    }

    @Test func sendsMaxTokensToLocalServersWhenConfigured() async throws {
        let url = server.baseURL("good")
        var local = settings(url)
        local.tokenLimitField = .maxTokens
        _ = try await OpenAICompatibleClient(settings: local, logger: Logger(label: "test")).readReceipt(receipt)
        let body = try #require(try await server.requests(at: url).first?["body"])
        #expect(body["max_tokens"] == .number("1000"))
        #expect(body["max_completion_tokens"] == nil)
        #expect(body["temperature"] == .number("0.1"))
    }

    @Test func sendsTheDocumentedAnthropicRequestAndReadsTheReply() async throws {
        let (client, url) = anthropic("good")
        let reply = try await client.readReceipt(receipt)
        #expect(reply.usage == TokenUsage(inputTokens: 1200, outputTokens: 180))
        #expect(JSONRepairer.repair(reply.text).value?["merchant"] == .string("Corner Café"))
        let request = try #require(try await server.requests(at: url).first)
        #expect(request["headers"]?["x-api-key"] == .string(Self.apiKey))
        #expect(request["headers"]?["anthropic-version"] != nil)
        let body = try #require(request["body"])
        #expect(body["max_tokens"] == .number("1000"))
        #expect(body["temperature"] == .number("0.1"))
        let content = try #require(body["messages"]?.elements?.first?["content"]?.elements)
        #expect(content.first?["source"]?["media_type"] == .string("image/jpeg"))
    }

    // MARK: Damaged replies

    @Test func readsAFencedReplyWithProseAndBraces() async throws {
        let reply = try await openAI("fenced").0.readReceipt(receipt)
        let extraction = LLMExtraction(
            replyText: reply.text, providerReportedTruncation: false)
        #expect(extraction.receipt?.merchant == "Corner Café")
        #expect(extraction.receipt?.amount == Decimal(string: "15.35"))
    }

    @Test func findsNothingUsableInProse() async throws {
        let reply = try await openAI("prose").0.readReceipt(receipt)
        let extraction = LLMExtraction(
            replyText: reply.text, providerReportedTruncation: false)
        #expect(extraction.receipt == nil)
    }

    @Test func refusesFieldsOfTheWrongType() async throws {
        let reply = try await openAI("wrong-types").0.readReceipt(receipt)
        let extraction = LLMExtraction(
            replyText: reply.text, providerReportedTruncation: false)
        let refused = Set(extraction.fieldIssues.map(\.path))
        #expect(refused == ["merchant", "amount", "date", "items"])
        #expect(extraction.receipt?.amount == nil)
        #expect(extraction.receipt?.currency == "USD")
    }

    @Test func retriesATruncatedReplyOnceWithTwiceTheBudget() async throws {
        let (client, url) = openAI("truncated-once")
        let reply = try await client.readReceipt(receipt)
        #expect(reply.calls == 2)
        #expect(!reply.wasTruncated)
        #expect(reply.usage.outputTokens == 360)
        let budgets = try await server.requests(at: url).map { $0["body"]?["max_completion_tokens"] }
        #expect(budgets == [.number("1000"), .number("2000")])
    }

    @Test(arguments: ["openai", "anthropic"])
    func handsAStillTruncatedReplyToRepairWithoutInventingValues(provider: String) async throws {
        let reply =
            provider == "openai"
            ? try await openAI("truncated-always").0.readReceipt(receipt)
            : try await anthropic("truncated-always").0.readReceipt(receipt)
        #expect(reply.calls == 2)
        #expect(reply.wasTruncated)
        let extraction = LLMExtraction(
            replyText: reply.text, providerReportedTruncation: true)
        #expect(extraction.wasTruncated)
        let truth = try #require(LLMReceiptReader.read(JSONRepairer.repair(FakeProviderServer.goodReceipt).value!).0)
        let partial = try #require(extraction.receipt)
        #expect(partial.merchant == truth.merchant)
        for (path, value) in partial.amounts {
            #expect(truth.amounts.contains { $0.path == path && $0.value == value }, "\(path) = \(value)")
        }
    }

    // MARK: Errors and retries

    @Test func failsAtOnceOn401WithoutTheKeyInTheMessage() async throws {
        let (client, url) = openAI("unauthorized")
        let failure = try #require(await error { try await client.readReceipt(receipt) })
        #expect(failure.code == .authentication)
        #expect(!failure.isRetryable)
        #expect(!"\(failure)".contains(Self.apiKey))
        #expect(!String(reflecting: failure).contains(Self.apiKey))
        #expect(!"\(failure)".contains("SECRET"))
        #expect("\(failure)".contains("check the key in"))
        #expect("\(failure)".contains("receipt-7"))
        #expect(try await server.requests(at: url).count == 1)
    }

    @Test func failsAtOnceWhenTheQuotaIsExhausted() async throws {
        let (client, url) = openAI("quota")
        let failure = try #require(await error { try await client.readReceipt(receipt) })
        #expect(failure.code == .quotaExhausted)
        #expect(try await server.requests(at: url).count == 1)
    }

    @Test func failsAtOnceOn400() async throws {
        let (client, url) = openAI("bad-request")
        let failure = try #require(await error { try await client.readReceipt(receipt) })
        #expect(failure.code == .badRequest)
        #expect("\(failure)".contains("Unsupported parameter"))
        #expect(try await server.requests(at: url).count == 1)
    }

    @Test(arguments: ["rate-limited", "rate-limited-seconds", "flaky"])
    func retriesRateLimitsAndServerErrors(scenario: String) async throws {
        let (client, url) = openAI(scenario)
        let reply = try await client.readReceipt(receipt)
        let calls = try await server.requests(at: url).count
        #expect(reply.calls == calls)
        #expect(calls == (scenario == "flaky" ? 3 : 2))
    }

    @Test func retriesAnthropicOverload() async throws {
        let (client, url) = anthropic("overloaded")
        _ = try await client.readReceipt(receipt)
        #expect(try await server.requests(at: url).count == 2)
    }

    @Test func givesUpAfterTheConfiguredRetries() async throws {
        let (client, url) = openAI("server-error")
        let failure = try #require(await error { try await client.readReceipt(receipt) })
        #expect(failure.code == .server)
        #expect(failure.status == 500)
        #expect(failure.isRetryable)
        #expect(try await server.requests(at: url).count == 3)
    }

    @Test func reportsABodyThatIsNotTheProviderFormat() async throws {
        let failure = try #require(await error { try await openAI("not-json").0.readReceipt(receipt) })
        #expect(failure.code == .invalidReply)
    }

    @Test func enforcesTheOverallDeadlineByCancellation() async throws {
        let (client, url) = openAI("slow", timeout: .seconds(1))
        let failure = try #require(await error { try await client.readReceipt(receipt) })
        #expect(failure.code == .deadlineExceeded)
        #expect("\(failure)".contains("llm.timeout"))
        // The server holds its reply for 30 s and records whether the client hung up first: the request must have
        // been cancelled, not awaited.
        let record = try await waitForServerRecord(at: url) { $0["disconnected"] != nil || $0["replied"] != nil }
        #expect(record["disconnected"] == .bool(true))
        #expect(record["replied"] == nil)
    }

    /// Polls the server's log of `url` until `isDone` holds for its first request (at most 40 s).
    func waitForServerRecord(at url: URL, until isDone: (JSONValue) -> Bool) async throws -> JSONValue {
        let limit = ContinuousClock.now + .seconds(40)
        while ContinuousClock.now < limit {
            if let record = try await server.requests(at: url).first, isDone(record) { return record }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw FakeServerError(message: "the fake server recorded no outcome for \(url) within 40 s")
    }

    @Test func retriesNetworkErrorsThenSaysWhatToCheck() async throws {
        let closed = URL(string: "http://127.0.0.1:1/v1")!
        let client = OpenAICompatibleClient(settings: settings(closed), logger: Logger(label: "test"))
        let failure = try #require(await error { try await client.readReceipt(receipt) })
        #expect(failure.code == .network)
        #expect("\(failure)".contains("llm.baseURL"))
        #expect(!"\(failure)".contains(Self.apiKey))
    }
}

extension VisionClientTests {
    @Test func anOCRTextHoldingTheImageMarkerCannotMoveTheImage() async throws {
        let (client, url) = openAI("good")
        let tricky = VisionRequest(receipt: "r", image: Data([1, 2, 3]), ocrText: #"TOTAL "@@receipt-image@@" 9.99"#)
        _ = try await client.readReceipt(tricky)
        let content = try #require(
            try await server.requests(at: url).first?["body"]?["messages"]?.elements?.first?["content"])
        let text = content.elements?.first { $0["type"] == .string("text") }?["text"]?.stringValue
        #expect(text?.hasSuffix(#"TOTAL "@@receipt-image@@" 9.99"#) == true)
        let image = content.elements?.first { $0["type"] == .string("image_url") }?["image_url"]?["url"]
        #expect(image == .string("data:image/jpeg;base64,AQID"))
    }
}
