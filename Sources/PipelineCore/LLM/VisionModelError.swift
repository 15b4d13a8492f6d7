/// Why a call to the vision LLM failed, classified for the queue. Never contains the API key.
public struct VisionModelError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Code: String, Sendable, Equatable {
        /// The API key variable is not set (a startup error).
        case missingAPIKey = "missing_api_key"
        /// 401: the key was refused.
        case authentication
        /// 403: the key may not use this model or endpoint.
        case permission
        /// 400/404/422: the request itself was refused (model name, base URL, parameters).
        case badRequest = "bad_request"
        /// 429 with an exhausted quota or billing problem.
        case quotaExhausted = "quota_exhausted"
        /// 429 or 529 after all retries.
        case rateLimited = "rate_limited"
        /// 408/409/5xx after all retries.
        case server
        /// The connection failed after all retries.
        case network
        /// The overall deadline passed.
        case deadlineExceeded = "deadline_exceeded"
        /// The provider answered 200 but the body was not its documented format.
        case invalidReply = "invalid_reply"
        /// The receipt's calls (`llm.retries` + 1 over all attempts) were already made.
        case callBudgetSpent = "call_budget_spent"
    }

    public let code: Code
    /// What failed and what to do about it.
    public let message: String
    /// HTTP status, when there was one.
    public let status: Int?
    /// HTTP calls made for the receipt before giving up (0 when none was sent).
    public var calls: Int
    /// How long the provider asked the caller to wait before the next call (HTTP `Retry-After`), when it said: the
    /// job's next attempt waits at least this long.
    public var retryAfter: Duration?

    public init(_ code: Code, _ message: String, status: Int? = nil, calls: Int = 0, retryAfter: Duration? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.calls = calls
        self.retryAfter = retryAfter
    }

    /// The account cannot make calls until a person fixes it (key refused, no access, no quota): every other
    /// receipt will fail the same way.
    public var isAccountFailure: Bool {
        code == .authentication || code == .permission || code == .quotaExhausted || code == .missingAPIKey
    }

    /// Whether trying the same receipt again later may succeed.
    public var isRetryable: Bool {
        switch code {
        case .rateLimited, .server, .network, .deadlineExceeded, .invalidReply: true
        case .missingAPIKey, .authentication, .permission, .badRequest, .quotaExhausted, .callBudgetSpent: false
        }
    }

    public var description: String { "llm: \(message)" }
}
