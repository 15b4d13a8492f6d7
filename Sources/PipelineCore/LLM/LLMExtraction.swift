import Foundation

/// The model's reply turned into a receipt: repaired, read, and checked against the OCR text.
public struct LLMExtraction: Sendable {
    /// The receipt, or nil when nothing usable was recovered.
    public let receipt: LLMReceipt?
    /// What the JSON repair dropped, fixed or flagged.
    public let repairNotes: [JSONRepairNote]
    /// Fields refused for their type or form.
    public let fieldIssues: [LLMFieldIssue]
    /// Amounts not printed in the OCR text (possible hallucinations).
    public let unsupportedAmounts: [UnsupportedAmount]
    /// The reply was cut off (by the provider's word or by its text).
    public let wasTruncated: Bool

    /// Whether a person should check the expense: nothing usable, truncated, refused fields or unsupported amounts.
    public var needsReview: Bool {
        receipt == nil || wasTruncated || !fieldIssues.isEmpty || !unsupportedAmounts.isEmpty
    }

    /// Repairs, reads and checks `replyText`.
    /// - Parameters:
    ///   - replyText: the model's reply as received.
    ///   - providerReportedTruncation: the provider said the output hit its token budget.
    ///   - ocrText: the OCR text of the same receipt, for the hallucination guard.
    public init(replyText: String, providerReportedTruncation: Bool, ocrText: String) {
        self.init(
            replyText: replyText, providerReportedTruncation: providerReportedTruncation,
            printedAmounts: { AmountEvidence.printedAmounts(in: ocrText) })
    }

    /// Repairs, reads and checks `replyText` against the amounts `evidence` already read from the page.
    public init(replyText: String, providerReportedTruncation: Bool, evidence: PageEvidence) {
        self.init(
            replyText: replyText, providerReportedTruncation: providerReportedTruncation,
            printedAmounts: { evidence.printedAmounts })
    }

    /// - Parameter printedAmounts: what the page's numbers could stand for, read only when the reply is usable.
    private init(replyText: String, providerReportedTruncation: Bool, printedAmounts: () -> Set<Decimal>) {
        let repaired = JSONRepairer.repair(replyText, providerReportedTruncation: providerReportedTruncation)
        repairNotes = repaired.notes
        wasTruncated = repaired.wasTruncated
        guard let value = repaired.value, repaired.isUsable else {
            receipt = nil
            fieldIssues = []
            unsupportedAmounts = []
            return
        }
        let (receipt, issues) = LLMReceiptReader.read(value)
        self.receipt = receipt
        fieldIssues = issues
        unsupportedAmounts = receipt.map { AmountEvidence.unsupportedAmounts(in: $0, printed: printedAmounts()) } ?? []
    }
}
