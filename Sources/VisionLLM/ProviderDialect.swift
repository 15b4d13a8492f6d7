import Foundation
import JSONRepair
import PipelineCore

/// What one provider's successful reply said.
struct ProviderAnswer: Sendable {
    let text: String
    /// The output hit the token budget (`finish_reason: length`, `stop_reason: max_tokens`).
    let isTruncated: Bool
    let usage: TokenUsage
}

/// How one provider's API is spoken: the request and the reply formats.
protocol ProviderDialect: Sendable {
    /// Provider name for messages, e.g. `OpenAI-compatible server`.
    var providerName: String { get }
    /// The HTTP request for one receipt with the given output token budget (key included).
    func makeHTTPRequest(for request: VisionRequest, maxTokens: Int) -> ProviderRequest
    /// Reads a 200 reply.
    func answer(from body: Data) throws(VisionModelError) -> ProviderAnswer
}

extension ProviderDialect {
    /// The message and machine code of an error body, OpenAI (`{"error":{"message","type","code"}}`) or
    /// Anthropic (`{"type":"error","error":{"type","message"}}`) style.
    func errorDetail(from body: Data) -> (message: String?, code: String?) {
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        guard let error = JSONRepairer.repair(text).value?["error"] else { return (nil, nil) }
        if let message = error.stringValue { return (message, nil) }
        let code = error["code"]?.stringValue ?? error["type"]?.stringValue
        return (error["message"]?.stringValue, code)
    }
}

/// Parses a provider body as JSON, or says it is not.
func providerJSON(_ body: Data, provider: String) throws(VisionModelError) -> JSONValue {
    let repaired = JSONRepairer.repair(String(decoding: body, as: UTF8.self))
    guard let value = repaired.value, value.members != nil, !repaired.wasTruncated else {
        throw VisionModelError(
            .invalidReply, "the \(provider) answered 200 with a body that is not a JSON object (\(body.count) bytes)")
    }
    return value
}

/// An integer field of a JSON object (token counts).
func integer(_ value: JSONValue?) -> Int {
    guard case .number(let text)? = value else { return 0 }
    return Int(text) ?? 0
}
