import Foundation
import JSONRepair
import Logging
import PipelineCore

/// A vision client for Anthropic's messages API: base64 image block, `max_tokens` (required by the API).
public struct AnthropicClient: VisionModel, ProviderDialect {
    /// The API version header value this client speaks.
    static let apiVersion = "2023-06-01"
    let settings: VisionClientSettings
    private let caller: ProviderCaller

    public init(settings: VisionClientSettings, logger: Logger) {
        self.settings = settings
        self.caller = ProviderCaller(settings: settings, logger: logger)
    }

    var providerName: String { "Anthropic API" }

    public func readReceipt(_ request: VisionRequest) async throws -> VisionReply {
        try await caller.readReceipt(request, dialect: self)
    }

    func makeHTTPRequest(for request: VisionRequest, maxTokens: Int) -> ProviderRequest {
        let image: JSONValue = .object([
            JSONMember("type", .string("image")),
            JSONMember(
                "source",
                .object([
                    JSONMember("type", .string("base64")),
                    JSONMember("media_type", .string(request.imageMediaType)),
                    JSONMember("data", .string(RequestBody.imageMarker)),
                ])),
        ])
        let text: JSONValue = .object([
            JSONMember("type", .string("text")),
            JSONMember("text", .string(ExtractionPrompt.userText(ocrText: request.ocrText, hint: request.hint))),
        ])
        let body: JSONValue = .object([
            JSONMember("model", .string(settings.model)),
            JSONMember("max_tokens", .number(String(maxTokens))),
            JSONMember("temperature", .number("\(settings.temperature)")),
            JSONMember(
                "messages",
                .array([
                    .object([JSONMember("role", .string("user")), JSONMember("content", .array([image, text]))])
                ])),
        ])
        return ProviderRequest(
            url: settings.baseURL.appendingPathComponent("messages"),
            headers: [
                ("Content-Type", "application/json"), ("x-api-key", settings.apiKey.value),
                ("anthropic-version", Self.apiVersion),
            ],
            body: RequestBody.encode(body, image: request.image))
    }

    func answer(from body: Data) throws(VisionModelError) -> ProviderAnswer {
        let reply = try providerJSON(body, provider: providerName)
        guard let blocks = reply["content"]?.elements else {
            throw VisionModelError(.invalidReply, "the \(providerName) reply has no content blocks")
        }
        let text = blocks.filter { $0["type"]?.stringValue == "text" }.compactMap { $0["text"]?.stringValue }.joined()
        let usage = TokenUsage(
            inputTokens: integer(reply["usage"]?["input_tokens"]),
            outputTokens: integer(reply["usage"]?["output_tokens"]))
        return ProviderAnswer(text: text, isTruncated: reply["stop_reason"]?.stringValue == "max_tokens", usage: usage)
    }
}
