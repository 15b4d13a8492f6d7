import Foundation

/// The port to a vision LLM: one receipt in, the model's raw reply out.
///
/// Implementations enforce their own overall deadline and retry policy and throw ``VisionModelError``.
public protocol VisionModel: Sendable {
    /// Asks the model to read one receipt.
    /// - Throws: ``VisionModelError`` (classified: retryable or permanent), or `CancellationError`.
    func readReceipt(_ request: VisionRequest) async throws -> VisionReply
}

/// One receipt for the model: the image, the OCR text and what the rules learned about where it is from.
public struct VisionRequest: Sendable {
    /// Names the receipt in errors and logs as they print it: `receipt 2 (lunch.jpg)`.
    public let receipt: String
    /// The image to send: the compressed copy, or the original when that is smaller (JPEG, PNG, WebP or GIF).
    public let image: Data
    /// The OCR text of the same image.
    public let ocrText: String
    /// The receipt's likely country and day/month order, when the rules found them.
    public let hint: ReceiptLocaleHint?
    /// Most HTTP calls this request may make: what is left of the receipt's budget over all its queue attempts.
    /// Nil: `llm.retries` + 1, plus one retry of a truncated reply.
    public let callLimit: Int?

    public init(receipt: String, image: Data, ocrText: String, hint: ReceiptLocaleHint? = nil, callLimit: Int? = nil) {
        self.receipt = receipt
        self.image = image
        self.ocrText = ocrText
        self.hint = hint
        self.callLimit = callLimit
    }

    /// The MIME type of `image`, read from its first bytes (JPEG when they say nothing a provider accepts).
    public var imageMediaType: String {
        switch detectImageFormat(leadingBytes: image) {
        case .supported(.png): "image/png"
        case .supported(.webp): "image/webp"
        case .supported(.gif): "image/gif"
        default: "image/jpeg"
        }
    }
}

/// Where a receipt is likely from, as the rules read it: told to the model so it reads dates and amounts the
/// local way.
public struct ReceiptLocaleHint: Sendable, Equatable {
    /// ISO 4217 code the rules found.
    public var currency: String
    /// Country name, when the currency belongs to one country.
    public var country: String?
    /// Whether numeric dates print the month first (`03/04` = March 4).
    public var monthFirst: Bool

    public init(currency: String, country: String?, monthFirst: Bool) {
        self.currency = currency
        self.country = country
        self.monthFirst = monthFirst
    }

    /// The hint from a rules draft's currency, or nil when the rules found none.
    public init?(rules: ExpenseDraft) {
        guard let currency = rules.currency?.value else { return nil }
        self.init(
            currency: currency, country: CurrencyDetector.country(of: currency),
            monthFirst: CurrencyDetector.isMonthFirst(currency: currency))
    }

    /// One sentence for the prompt.
    public var sentence: String {
        let place = country.map { "from \($0) (currency \(currency))" } ?? "in \(currency)"
        let order = monthFirst ? "month first (MM/DD/YYYY)" : "day first (DD/MM/YYYY)"
        return "The receipt is likely \(place); its numeric dates are likely written \(order)."
    }
}

/// The model's reply: its text, whether it was cut off, and what it cost.
public struct VisionReply: Sendable, Equatable {
    /// The reply text (expected to be the JSON, possibly damaged).
    public let text: String
    /// The provider said the output hit the token budget (after the one retry with a larger budget).
    public let wasTruncated: Bool
    /// Tokens of every call made for this receipt, retries included.
    public let usage: TokenUsage
    /// HTTP calls made, retries included.
    public let calls: Int
    /// The model that answered.
    public let model: String

    public init(text: String, wasTruncated: Bool, usage: TokenUsage, calls: Int, model: String) {
        self.text = text
        self.wasTruncated = wasTruncated
        self.usage = usage
        self.calls = calls
        self.model = model
    }
}

/// Tokens in and out, summed over calls.
public struct TokenUsage: Sendable, Equatable {
    public var inputTokens: Int
    public var outputTokens: Int

    public init(inputTokens: Int = 0, outputTokens: Int = 0) {
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
    }

    public static func + (left: TokenUsage, right: TokenUsage) -> TokenUsage {
        TokenUsage(
            inputTokens: left.inputTokens + right.inputTokens, outputTokens: left.outputTokens + right.outputTokens)
    }

    /// The cost at the given prices per million tokens (`llm.inputPricePerMillion`, `llm.outputPricePerMillion`).
    public func cost(inputPricePerMillion: Decimal, outputPricePerMillion: Decimal) -> Decimal {
        (Decimal(inputTokens) * inputPricePerMillion + Decimal(outputTokens) * outputPricePerMillion) / 1_000_000
    }
}
