import Foundation
import PipelineCore

/// The recorded-reply corpus: provider bodies for the shipped receipts (`LLMCorpus/README.md`), and the OCR pages
/// of those receipts the replies are checked against.
public enum LLMCorpus {
    /// How a recorded reply answers.
    public enum Variant: String, CaseIterable, Sendable {
        /// The label's values, as a model that reads the receipt right would give them.
        case right
        /// The same in a code fence between prose.
        case fenced
        /// Cut off after three fifths, the provider reporting its token budget hit.
        case truncated
        /// An invented total and an invented `Service charge` item priced at the printed total.
        case invented
        /// `Starbucks Coffee` as the merchant.
        case wrongMerchant = "wrong-merchant"
        /// A date a year and some days off.
        case wrongDate = "wrong-date"
    }

    /// The ten shipped receipts the corpus covers (names without extension).
    public static let receipts = [
        "sroie_006", "sroie_030", "sroie_035", "sroie_051", "sroie_057", "wr_13_10", "wr_28_14", "wr_33_15",
        "wr_58_20", "wr_89_9",
    ]

    /// The corpus folder: `openai/` and `anthropic/` bodies, `pages/` OCR pages.
    public static var folder: URL {
        Bundle.module.resourceURL!.appendingPathComponent("LLMCorpus")
    }

    /// The fake server scenario that answers with a recorded reply.
    public static func scenario(_ receipt: String, _ variant: Variant) -> String {
        "recorded-\(receipt).\(variant.rawValue)"
    }

    /// The OCR page Tesseract made of a shipped receipt with the shipped defaults.
    public static func page(_ receipt: String) throws -> OCRPage {
        try JSONDecoder().decode(
            OCRPage.self, from: Data(contentsOf: folder.appendingPathComponent("pages/\(receipt).ocr.json")))
    }
}
