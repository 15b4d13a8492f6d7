import Foundation
import JSONRepair

/// The model's reply turned into a receipt: repaired and read. `DraftMerge` checks its values against the page.
public struct LLMExtraction: Sendable {
    /// The receipt, or nil when nothing usable was recovered.
    public let receipt: LLMReceipt?
    /// Fields refused for their type or form.
    public let fieldIssues: [LLMFieldIssue]
    /// The reply was cut off (by the provider's word or by its text).
    public let wasTruncated: Bool

    /// Repairs and reads `replyText`.
    /// - Parameters:
    ///   - replyText: the model's reply as received.
    ///   - providerReportedTruncation: the provider said the output hit its token budget.
    public init(replyText: String, providerReportedTruncation: Bool) {
        let repaired = JSONRepairer.repair(replyText, providerReportedTruncation: providerReportedTruncation)
        wasTruncated = repaired.wasTruncated
        guard let value = repaired.value, repaired.isUsable else {
            receipt = nil
            fieldIssues = []
            return
        }
        (receipt, fieldIssues) = LLMReceiptReader.read(value)
    }
}
