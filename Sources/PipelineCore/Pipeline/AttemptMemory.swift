import Foundation

/// The vision-LLM calls one receipt may make over all its queue attempts (`llm.retries` + 1), so that queue
/// retries and HTTP retries share one budget instead of multiplying.
public struct LLMCallBudget: Sendable, Equatable {
    /// Calls per receipt, over every attempt.
    public var perReceipt: Int

    public init(retries: Int) {
        perReceipt = max(retries, 0) + 1
    }

    /// Calls the receipt may still make once `used` were made.
    public func remaining(afterUsing used: Int) -> Int {
        max(perReceipt - used, 0)
    }

    /// The finding of a receipt whose calls are spent: the rules' reading stands.
    public func spentFinding(used: Int) -> Finding {
        LLMCallOutcome.notUsedFinding(
            "this receipt's \(perReceipt) calls (llm.retries + 1 over all attempts) were made "
                + "already (\(used) so far); once the cause is fixed, pipeline reprocess --llm-failed (or pipeline "
                + "reprocess ID) gives it a new budget")
    }
}

/// How one attempt's LLM calls ended: a reply, or the failure's code and message.
public struct LLMCallOutcome: Sendable, Equatable {
    /// A reply came back, or the calls failed with a code; stored as `ok` or the code's raw value
    /// (`llm_calls.outcome`, `receipts.llm_failure`).
    public enum Ending: Sendable, Hashable, RawRepresentable {
        case answered
        case failed(VisionModelError.Code)

        public init?(rawValue: String) {
            if rawValue == "ok" {
                self = .answered
            } else if let code = VisionModelError.Code(rawValue: rawValue) {
                self = .failed(code)
            } else {
                return nil
            }
        }

        public var rawValue: String {
            switch self {
            case .answered: "ok"
            case .failed(let code): code.rawValue
            }
        }

        /// The failure's code; nil for a reply.
        public var failure: VisionModelError.Code? {
            if case .failed(let code) = self { code } else { nil }
        }
    }

    /// The finding of a receipt the model could not be asked about (the rules' reading stands), saying why.
    public static func notUsedFinding(_ why: String) -> Finding {
        Finding(.llmNotUsed, "the LLM was not used: " + why)
    }

    /// HTTP calls the attempt made.
    public var calls: Int
    public var outcome: Ending
    /// The failure's message (never holds the key), nil for a reply.
    public var message: String?

    public init(calls: Int, outcome: Ending, message: String?) {
        self.calls = calls
        self.outcome = outcome
        self.message = message
    }

    /// A reply came back.
    public static func answered(calls: Int) -> LLMCallOutcome {
        LLMCallOutcome(calls: calls, outcome: .answered, message: nil)
    }

    /// The model failed with `error`.
    public init(failure error: VisionModelError) {
        self.init(calls: error.calls, outcome: .failed(error.code), message: error.message)
    }
}

/// An OCR page kept of a receipt — by an earlier attempt, or by ingest from the scanned pages it read to split a
/// PDF — reused by later attempts and `pipeline reprocess` instead of running OCR again.
public struct KeptPage: Sendable, Equatable {
    public var page: OCRPage
    /// The engine that read it: a page from another engine is not reused.
    public var madeBy: OCREngineChoice
    /// The copy made for the vision model alongside the page; nil when no model was configured then.
    public var llmImage: Data?

    public init(page: OCRPage, madeBy: OCREngineChoice, llmImage: Data?) {
        self.page = page
        self.madeBy = madeBy
        self.llmImage = llmImage
    }
}

/// What an attempt leaves on its receipt besides the expense, whether it succeeded or failed: the LLM calls it made
/// (charged to the receipt's budget) and the page it read, when it read one afresh.
public struct AttemptTrace: Sendable, Equatable {
    /// Nil when the model was not called (none configured, or the budget was spent).
    public var llmCalls: LLMCallOutcome?
    /// Nil when the attempt reused a kept page or failed before OCR finished.
    public var newPage: KeptPage?

    public init(llmCalls: LLMCallOutcome? = nil, newPage: KeptPage? = nil) {
        self.llmCalls = llmCalls
        self.newPage = newPage
    }
}

/// Merchant names people gave by correcting or accepting receipts: offered to extraction, and a receipt's own
/// correction applied before categorization.
public protocol LearnedMerchants: Sendable {
    /// The merchant a person gave receipt `receiptID` itself (when reprocessed), else the name learned from another
    /// receipt whose header reads the same: the merchant's lines `merchantLines` of `ocrText` (its first line when
    /// none); nil when nobody gave one.
    func learnedMerchant(ocrText: String, merchantLines: [Int], receiptID: Int64) async throws -> LearnedMerchant?

    /// The merchants of accepted and corrected expenses with the header texts they were read from, most recently
    /// used first: extraction offers one as a candidate where a line reads like it.
    func knownMerchants() async throws -> [KnownMerchant]
}

/// A merchant name a person gave.
public struct LearnedMerchant: Sendable, Equatable {
    /// The alias learned from another receipt, so the commit can count its use; nil for the receipt's own correction.
    public var id: Int64?
    public var name: String

    public init(id: Int64?, name: String) {
        self.id = id
        self.name = name
    }
}
