import Foundation

/// Which reading an expense's fields come from, as stored in `expenses.extraction_source`.
public enum ExtractionSource: String, Sendable, Equatable, Codable, CaseIterable {
    /// The rules' reading of the OCR page alone (no LLM configured, or its reply was not used).
    case rules
    /// The LLM's reading alone (stored by earlier versions; the pipeline now always merges).
    case llm
    /// The LLM's reading merged with the rules' (`DraftMerge`).
    case merged
}

/// Everything committed for one processed receipt: the reconciled draft, its outcome, category, provenance
/// and timings. Built by the worker, written by the store in the job's completion transaction.
public struct ExpenseRecord: Sendable {
    public var receiptID: Int64
    public var result: ReconciliationResult
    public var categorization: Categorization
    public var extractionSource: ExtractionSource
    /// Findings beyond reconciliation (e.g. LLM amounts not found in the OCR text).
    public var extraFindings: [Finding]
    /// Recorded with the findings (e.g. how the LLM merge settled a disagreement); their codes give no review reason.
    public var notes: [Finding]
    public var ocrText: String
    public var ocrConfidence: Double
    /// Where the page's text came from: the OCR engine, or a born-digital PDF's text layer.
    public var pageSource = PageSource.ocr
    /// The page as rendered (the LLM's JPEG copy), kept for receipts whose format browsers cannot show; nil otherwise.
    public var renderedPage: Data?
    public var llmUsage: LLMUsageRecord?
    public var claimedAt: Date
    public var timings: [StageTiming]
    /// Where the OCR lines sit on the page, for the review page's evidence outlines (nil: not shown).
    public var ocrLayout: OCRLayout?
    /// The merchant name a person gave that replaced the reading (an alias's use is counted at commit).
    public var learnedMerchant: LearnedMerchant?
    /// The decoded page's perceptual hash (nil when the page was not decoded in this run): the commit compares it
    /// with earlier expenses' to find a re-scan or second photo of the same receipt.
    public var pageFingerprint: PageFingerprint?
    /// The trust budget the decision is made at (`acceptance.maxSilentPer100`): at most this many receipts in 100
    /// accepted with a wrong merchant, date or total.
    public var maxSilentPer100 = AutoAcceptance.defaultMaxSilentPer100

    public init(
        receiptID: Int64, result: ReconciliationResult, categorization: Categorization,
        extractionSource: ExtractionSource,
        extraFindings: [Finding], notes: [Finding] = [], ocrText: String, ocrConfidence: Double,
        llmUsage: LLMUsageRecord?, claimedAt: Date, timings: [StageTiming]
    ) {
        self.receiptID = receiptID
        self.result = result
        self.categorization = categorization
        self.extractionSource = extractionSource
        self.extraFindings = extraFindings
        self.notes = notes
        self.ocrText = ocrText
        self.ocrConfidence = ocrConfidence
        self.llmUsage = llmUsage
        self.claimedAt = claimedAt
        self.timings = timings
    }

    /// The expense's overall confidence: the mean of its key fields' confidences (0 for a field not found), to
    /// three decimals.
    public var confidence: Decimal {
        let draft = result.draft
        let values = [draft.merchant?.confidence, draft.date?.confidence, draft.total?.confidence].map { $0 ?? 0 }
        let mean = values.reduce(0, +) / Double(values.count)
        return Decimal(string: String(format: "%.3f", min(max(mean, 0), 1))) ?? 0
    }
}

/// LLM calls made for one receipt.
public struct LLMUsageRecord: Sendable, Equatable {
    public var model: String
    public var calls: Int
    public var inputTokens: Int
    public var outputTokens: Int

    public init(model: String, calls: Int, inputTokens: Int, outputTokens: Int) {
        self.model = model
        self.calls = calls
        self.inputTokens = inputTokens
        self.outputTokens = outputTokens
    }
}
