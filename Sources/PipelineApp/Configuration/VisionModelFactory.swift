import Foundation
import Logging
import PipelineCore
import VisionLLM

/// Builds the configured vision client (`llm.*`), reading the API key from the environment.
public enum VisionModelFactory {
    /// Anthropic's API, used when `llm.baseURL` is left at the OpenAI default.
    static let anthropicBaseURL = "https://api.anthropic.com/v1"
    /// The default `llm.baseURL` (OpenAI's API).
    static let openAIBaseURL = "https://api.openai.com/v1"

    /// The client for `configuration`, or nil when `llm.provider` is `none`.
    /// - Throws: ``VisionModelError`` `.missingAPIKey` naming the variable when it is unset or empty, or
    ///   `.badRequest` when `llm.baseURL` is not an http(s) URL. Call at startup.
    public static func makeVisionModel(
        configuration: PipelineConfiguration.LLM, environment: [String: String], logger: Logger
    ) throws(VisionModelError) -> (any VisionModel)? {
        guard configuration.provider != .none else { return nil }
        let variable = configuration.apiKeyEnvironmentVariable
        guard let key = environment[variable], !key.isEmpty else {
            throw VisionModelError(
                .missingAPIKey,
                "llm.provider is \(configuration.provider.rawValue) but the environment variable \(variable) is not set; "
                    + "export \(variable) with the API key, name another variable in llm.apiKeyEnvironmentVariable, "
                    + "or set llm.provider: none")
        }
        var base = configuration.baseURL
        if configuration.provider == .anthropic && base == openAIBaseURL {
            base = anthropicBaseURL
        }
        guard let url = URL(string: base), url.scheme == "http" || url.scheme == "https" else {
            throw VisionModelError(.badRequest, "llm.baseURL '\(base)' is not an http(s) URL; fix it in pipeline.yaml")
        }
        var settings = VisionClientSettings(
            baseURL: url, model: configuration.model, apiKey: APIKey(key), maxTokens: configuration.maxTokens,
            tokenLimitField: configuration.tokenLimitField, temperature: configuration.temperature,
            retries: configuration.retries, timeout: configuration.timeout)
        settings.apiKeySource = "\(variable) (llm.apiKeyEnvironmentVariable)"
        switch configuration.provider {
        case .openai: return OpenAICompatibleClient(settings: settings, logger: logger)
        case .anthropic: return AnthropicClient(settings: settings, logger: logger)
        case .none: return nil
        }
    }
}
