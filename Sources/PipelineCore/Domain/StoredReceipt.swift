import Foundation

/// A stored receipt image, as a worker loads it.
public struct StoredReceipt: Sendable {
    public let id: Int64
    public let sha256: String
    public let originalName: String
    public let format: ImageFormat
    public let bytes: [UInt8]
    public let ingestedAt: Date
    /// Vision-LLM calls already made for it over all its attempts (see `LLMCallBudget`).
    public let llmCallsUsed: Int
    /// The OCR page an earlier attempt kept, if any.
    public let keptPage: KeptPage?

    public init(
        id: Int64, sha256: String, originalName: String, format: ImageFormat, bytes: [UInt8], ingestedAt: Date,
        llmCallsUsed: Int = 0, keptPage: KeptPage? = nil
    ) {
        self.id = id
        self.sha256 = sha256
        self.originalName = originalName
        self.format = format
        self.bytes = bytes
        self.ingestedAt = ingestedAt
        self.llmCallsUsed = llmCallsUsed
        self.keptPage = keptPage
    }

    /// How errors and logs name it: `receipt 12 (IMG_0042.jpg)`.
    public var displayName: String { Self.displayName(id: id, originalName: originalName) }

    /// How errors and logs name receipt `id` stored from `originalName`.
    public static func displayName(id: Int64, originalName: String) -> String { "receipt \(id) (\(originalName))" }
}
