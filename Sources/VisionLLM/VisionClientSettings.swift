import Foundation
import PipelineCore

/// An API key that never prints itself.
public struct APIKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let value: String

    public init(_ value: String) { self.value = value }

    public var description: String { "<redacted>" }
    public var debugDescription: String { "<redacted>" }
    public var customMirror: Mirror { Mirror(self, children: []) }
}

/// What a vision client needs: endpoint, model, key, budgets and the retry policy.
public struct VisionClientSettings: Sendable {
    /// API base URL, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`.
    public var baseURL: URL
    public var model: String
    public var apiKey: APIKey
    /// Where the key came from, for error messages (the variable's name, never its value).
    public var apiKeySource = "the variable named by llm.apiKeyEnvironmentVariable"
    /// Output token budget of the first call; a truncated reply is retried once with twice this.
    public var maxTokens: Int
    /// Which field carries `maxTokens` to an OpenAI-compatible server.
    public var tokenLimitField: LLMTokenLimitField
    public var temperature: Decimal
    /// Retries of 408/409/429/5xx/529 and network errors.
    public var retries: Int
    /// Overall deadline per receipt, retries included.
    public var timeout: Duration
    /// First retry delay (doubled per retry, with jitter) and the longest delay.
    public var backoffBase: Duration = .milliseconds(500)
    public var backoffCap: Duration = .seconds(20)

    public init(
        baseURL: URL, model: String, apiKey: APIKey, maxTokens: Int = 4096,
        tokenLimitField: LLMTokenLimitField = .maxCompletionTokens, temperature: Decimal = Decimal(string: "0.1")!,
        retries: Int = 3, timeout: Duration = .seconds(60)
    ) {
        self.baseURL = baseURL
        self.model = model
        self.apiKey = apiKey
        self.maxTokens = maxTokens
        self.tokenLimitField = tokenLimitField
        self.temperature = temperature
        self.retries = retries
        self.timeout = timeout
    }
}
