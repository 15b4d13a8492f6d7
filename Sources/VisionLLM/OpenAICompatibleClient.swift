import Foundation
import JSONRepair
import Logging
import PipelineCore

/// A vision client for OpenAI's chat completions API and every server that copies it (Azure OpenAI, Ollama, vLLM,
/// llama.cpp server, LM Studio): image as a base64 data URL, strict `json_schema` structured output.
public struct OpenAICompatibleClient: VisionModel, ProviderDialect {
    let settings: VisionClientSettings
    private let caller: ProviderCaller

    public init(settings: VisionClientSettings, logger: Logger) {
        self.settings = settings
        self.caller = ProviderCaller(settings: settings, logger: logger)
    }

    var providerName: String { "OpenAI-compatible server" }

    public func readReceipt(_ request: VisionRequest) async throws -> VisionReply {
        try await caller.readReceipt(request, dialect: self)
    }

    func makeHTTPRequest(for request: VisionRequest, maxTokens: Int) -> ProviderRequest {
        let content: JSONValue = .array([
            .object([
                JSONMember("type", .string("text")),
                JSONMember("text", .string(ExtractionPrompt.userText(ocrText: request.ocrText, hint: request.hint))),
            ]),
            .object([
                JSONMember("type", .string("image_url")),
                JSONMember(
                    "image_url",
                    .object([
                        JSONMember("url", .string(RequestBody.imageMarker)), JSONMember("detail", .string("high")),
                    ])),
            ]),
        ])
        let body: JSONValue = .object([
            JSONMember("model", .string(settings.model)),
            JSONMember(
                "messages", .array([.object([JSONMember("role", .string("user")), JSONMember("content", content)])])),
            JSONMember("temperature", .number("\(settings.temperature)")),
            JSONMember(settings.tokenLimitField.rawValue, .number(String(maxTokens))),
            JSONMember(
                "response_format",
                .object([
                    JSONMember("type", .string("json_schema")),
                    JSONMember(
                        "json_schema",
                        .object([
                            JSONMember("name", .string("receipt")),
                            JSONMember("strict", .bool(true)),
                            JSONMember("schema", ExtractionPrompt.schema),
                        ])),
                ])),
        ])
        return ProviderRequest(
            url: settings.baseURL.appendingPathComponent("chat/completions"),
            headers: [("Content-Type", "application/json"), ("Authorization", "Bearer " + settings.apiKey.value)],
            body: RequestBody.encode(body, image: request.image, prefix: "data:\(request.imageMediaType);base64,"))
    }

    func answer(from body: Data) throws(VisionModelError) -> ProviderAnswer {
        let reply = try providerJSON(body, provider: providerName)
        guard let choice = reply["choices"]?.elements?.first, let message = choice["message"] else {
            throw VisionModelError(.invalidReply, "the \(providerName) reply has no choices[0].message")
        }
        let usage = TokenUsage(
            inputTokens: integer(reply["usage"]?["prompt_tokens"]),
            outputTokens: integer(reply["usage"]?["completion_tokens"]))
        guard let text = message["content"]?.stringValue else {
            let refusal = message["refusal"]?.stringValue.map { ": \($0.prefix(200))" } ?? ""
            throw VisionModelError(.invalidReply, "the \(providerName) returned no content\(refusal)")
        }
        return ProviderAnswer(text: text, isTruncated: choice["finish_reason"]?.stringValue == "length", usage: usage)
    }
}
