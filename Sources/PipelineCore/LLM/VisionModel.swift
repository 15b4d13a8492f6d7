import Foundation

/// The port to a vision LLM: one receipt in, the model's raw reply out.
///
/// Implementations enforce their own overall deadline and retry policy and throw ``VisionModelError``.
public protocol VisionModel: Sendable {
    /// Asks the model to read one receipt.
    /// - Throws: ``VisionModelError`` (classified: retryable or permanent), or `CancellationError`.
    func readReceipt(_ request: VisionRequest) async throws -> VisionReply
}

/// One receipt for the model: the compressed image and the OCR text as a hint.
public struct VisionRequest: Sendable {
    /// Names the receipt in errors and logs (e.g. its id or file name).
    public let receipt: String
    /// The compressed JPEG.
    public let jpeg: Data
    /// The OCR text of the same image.
    public let ocrText: String

    public init(receipt: String, jpeg: Data, ocrText: String) {
        self.receipt = receipt
        self.jpeg = jpeg
        self.ocrText = ocrText
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
