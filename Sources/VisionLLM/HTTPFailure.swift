import Foundation
import PipelineCore

/// Classifies a provider's non-200 answer into a ``VisionModelError`` whose message says what to fix.
enum HTTPFailure {
    /// Error codes that mean the account has no money or quota left: retrying cannot help.
    private static let quotaCodes: Set<String> = [
        "insufficient_quota", "billing_hard_limit_reached", "billing_not_active",
    ]

    static func classify(
        status: Int, detail: (message: String?, code: String?), provider: String, receipt: String,
        settings: VisionClientSettings
    ) -> VisionModelError {
        let said =
            detail.message.map { ": " + SecretRedaction.redact(String($0.prefix(300)), key: settings.apiKey) } ?? ""
        let prefix = "\(receipt): the \(provider) answered HTTP \(status)\(said)"
        let code: VisionModelError.Code
        let advice: String
        switch status {
        case 401:
            (code, advice) = (
                .authentication,
                "the API key was refused; check the key in \(settings.apiKeySource)"
            )
        case 403:
            (code, advice) = (
                .permission, "the key may not use model '\(settings.model)'; check the account's access or llm.model"
            )
        case 429 where quotaCodes.contains(detail.code ?? "") || (detail.message ?? "").lowercased().contains("quota"):
            (code, advice) = (
                .quotaExhausted,
                "the account's quota or credit is used up; add credit or raise the limit, then retry the job"
            )
        case 429, 529:
            (code, advice) = (
                .rateLimited, "rate limited or overloaded; lower workers.concurrency or raise llm.retries"
            )
        case 408, 409, 500...599:
            (code, advice) = (.server, "the server failed (a temporary error on its side)")
        case 404:
            (code, advice) = (.badRequest, "check llm.baseURL (OpenAI-compatible servers end in /v1) and llm.model")
        default:
            (code, advice) = (
                .badRequest, "the request was refused; check llm.model, llm.maxTokens and llm.tokenLimitField"
            )
        }
        return VisionModelError(code, prefix + "; " + advice, status: status)
    }
}

/// Removes API keys from text a provider sent back (some echo a masked key in their 401 message).
enum SecretRedaction {
    static func redact(_ text: String, key: APIKey) -> String {
        var redacted = key.value.isEmpty ? text : text.replacingOccurrences(of: key.value, with: "<redacted>")
        redacted = redacted.replacingOccurrences(
            of: #"(sk|key)-[A-Za-z0-9_\-\*]{4,}"#, with: "<redacted>", options: .regularExpression)
        return redacted
    }
}

/// How long to wait before a retry.
enum RetryDelay {
    /// The wait a 429/503 asked for: `retry-after-ms`, or `retry-after` in seconds or as an HTTP date.
    /// - Parameter lowercased: the response headers, names lower-cased.
    static func requested(by lowercased: [String: String]) -> Duration? {
        if let text = lowercased["retry-after-ms"], let milliseconds = Double(text),
            let wait = Duration(checkedMilliseconds: milliseconds)
        {
            return wait
        }
        guard let text = lowercased["retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Double(text) { return Duration(checkedMilliseconds: seconds * 1000) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        return Duration(checkedMilliseconds: max(0, date.timeIntervalSinceNow) * 1000)
    }

    /// Exponential backoff with jitter: `base × 2^(retry−1)`, capped, scaled by a random factor in 0.5…1.
    static func backoff(retry: Int, base: Duration, cap: Duration) -> Duration {
        let exponential = base * (1 << min(retry - 1, 20))
        return min(exponential, cap) * Double.random(in: 0.5...1)
    }
}
