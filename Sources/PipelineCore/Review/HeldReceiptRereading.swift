/// Which receipts waiting for review a person's confirmation lets the machine decide again (docs/review.md, "Read
/// again after a confirmation"). A batch of receipts is read before anyone reviews it, so the week's other receipts
/// of a shop wait for review beside the first one a person confirms; read again, they find the shop a known merchant
/// (`KnownMerchant`) and the trust models decide them with that evidence, as receipts arriving later would be.
public enum HeldReceiptRereading {
    /// A receipt waiting for review, as the choice weighs it.
    public struct Held: Sendable, Equatable {
        public var receiptID: Int64
        /// The merchant the machine read.
        public var merchant: String?
        /// The page's text, one OCR line per line (its top lines are enough).
        public var ocrText: String
        /// A person corrected or decided something on it: it is theirs, not the machine's, to settle.
        public var touchedByPerson: Bool
        /// Its reading called the vision model (a reply or a failure): read again, it would lose that reply or call
        /// the model again.
        public var calledModel: Bool

        public init(
            receiptID: Int64, merchant: String?, ocrText: String, touchedByPerson: Bool,
            calledModel: Bool
        ) {
            self.receiptID = receiptID
            self.merchant = merchant
            self.ocrText = ocrText
            self.touchedByPerson = touchedByPerson
            self.calledModel = calledModel
        }
    }

    /// Whether a confirmation can teach the held receipts anything their last reading lacked: a merchant a person
    /// named (a name or header extraction may not have known), or a merchant accepted no more than
    /// `KnownMerchant.saturation` times counting this one (past it, one more confirmation adds no evidence). So a
    /// person working through a long queue of one shop sets off a few re-readings, not one per receipt.
    /// - Parameters:
    ///   - merchantNamed: the person corrected the merchant.
    ///   - accepted: the merchant's accepted expenses, this one included.
    public static func teaches(merchantNamed: Bool, accepted: Int) -> Bool {
        merchantNamed || accepted <= KnownMerchant.saturation
    }

    /// How many of a page's first lines may hold the merchant: the machine may have taken a slogan above it.
    static let topLines = 8

    /// The held receipts to read again, ascending: those no person touched and no vision model was called for, whose
    /// merchant or one of the first `topLines` lines reads like a name the confirmation taught (the merchant's name
    /// as the person confirmed it, the header its receipt was read from), as alike as extraction's known-merchant
    /// match asks (`MerchantExtractor.knownMatch`).
    public static func receipts(readingLike taught: [String], among held: [Held]) -> [Int64] {
        let names = taught.map(TextSimilarity.normalized).filter { $0.count >= minimumLength }
        guard !names.isEmpty else { return [] }
        return held.filter { receipt in
            guard !receipt.touchedByPerson, !receipt.calledModel else { return false }
            let lines = receipt.ocrText.split(separator: "\n").prefix(topLines).map(String.init)
            let texts = [receipt.merchant].compactMap { $0 } + lines
            return texts.contains { text in
                let reading = TextSimilarity.normalized(text)
                return reading.count >= minimumLength
                    && names.contains { TextSimilarity.similarity($0, reading) >= MerchantExtractor.knownMatch }
            }
        }.map(\.receiptID).sorted()
    }

    /// Names shorter than this match too much by chance (`AB` is one edit from most two-letter lines).
    static let minimumLength = 3
}
