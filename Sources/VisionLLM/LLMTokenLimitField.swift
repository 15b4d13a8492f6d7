/// The request field that caps the output tokens of an OpenAI-compatible server: OpenAI wants
/// `max_completion_tokens`; Ollama, vLLM, llama.cpp and LM Studio read only `max_tokens`.
public enum LLMTokenLimitField: String, Sendable, CaseIterable, Equatable {
    case maxCompletionTokens = "max_completion_tokens"
    case maxTokens = "max_tokens"
}
