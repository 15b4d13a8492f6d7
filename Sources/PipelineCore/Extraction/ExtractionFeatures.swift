/// A named feature the fitted model weighs: its raw value is its name in `scripts/fit_extraction/model.json` and in
/// `pipeline-bench extraction-features`. Each field has its own closed set, so a misspelled name does not compile
/// (it used to weigh 0), and `ExtractionModelTests` checks that the fit weighs exactly these.
public protocol ExtractionFeature: RawRepresentable<String>, CaseIterable, Hashable, Sendable, Codable,
    CodingKeyRepresentable
{}

/// Named features of one candidate or receipt, each a small number: an indicator (0 or 1), a share or a clipped
/// count.
public typealias CandidateFeatures<Feature: ExtractionFeature> = [Feature: Double]

/// Features of an amount that could be the total (`TotalsExtractor`).
public enum TotalFeature: String, ExtractionFeature {
    case belowSubtotal
    case equalsSubtotal
    case itemsSum
    case largest
    case notPositive
    case ocrConfidence
    case otherRoleLine
    case paidWithoutTotalLine
    case plainLine
    case position
    case repeats
    case roundedOfPair
    case roundedTotalLine
    case strongTotalLine
    case subtotalLine
    case subtotalPlusTax
    case tenderedLessChange
    case tenderedLessChangeOnly
    case tenderedLine
    case totalLine
    case totalLineNotRightmost
    case unroundedOfPair
    case vatTableGross
}

/// Features of a line (or joined lines) that could be the merchant's name (`MerchantExtractor`).
public enum MerchantFeature: String, ExtractionFeature {
    case amount
    /// The candidate is a brand of the name-suggestion-index the line reads as: how alike (0.75–1; `withBrands`).
    case brand
    /// The brand is read below the top lines: the foot, a web address.
    case brandBelowTop
    /// The brand's name is an everyday word on receipts (`Total`, `Central`; `MerchantExtractor.isEverydayWord`).
    case brandEverydayWord
    /// The page's country evidence names a country the brand operates in.
    case brandInCountry
    /// The brand is only some of the line's words (`LIDL Berlin`, `Lidl GmbH`, `www.lidl.de`).
    case brandInsideLine
    /// The page's country evidence names countries, none of them the brand's.
    case brandNotInCountry
    /// A line candidate whose line holds a brand's name: how alike (0.75–1).
    case brandOnLine
    case brandOnLegalLine
    case companyWord
    case digits
    case firstWordLine
    case furnitureWords
    case headerNamesBrand
    case headerPass
    case inWebsite
    case joinedGenericName
    /// How alike the line reads to a merchant a person confirmed before (0.75–1; `KnownMerchant`).
    case knownMerchant
    /// How often that merchant was confirmed, saturating: min(confirmations, 5) / 5 (`KnownMerchant`).
    case knownConfirmations
    case legalEntityBrand
    case legalForm
    case letters
    case noRealWord
    case ocrConfidence
    case placeOrPhone
    case position
    case readsMoreThanPage
    case realWordShare
    case sdnBhd
    case slogan
    case stateAndZip
    case streetAndNumber
    case streetWord
    case taller
    case tradeWord
    case upperCase
    case wordLinesAbove
}

/// Features of a date read on the page (`DateExtractor`).
public enum DateFeature: String, ExtractionFeature {
    case ambiguousOrder
    case dateWord
    case expiryWord
    case monthName
    /// The lowest OCR confidence of the line's words with digits, 0–1: a misread digit (`01` for `07`) is where a
    /// date goes wrong, and the engine is often less sure of it.
    case ocrConfidence
    case position
    case repeats
    case timeOnLine
    case twoDigitYear
}

/// What every key field's trust model weighs besides its winner's own features (`AutoAcceptance`): how the field's
/// ranking stood, the page, the reconciliation outcome, and a second reader's agreement.
public enum SharedTrustFeature: String, Sendable, CaseIterable {
    /// The winner's softmax share of the ranking, and the same as log-odds scaled to ±1.
    case share, logOdds
    /// The winner's score less the runner-up's, over 10; how many candidates there were, over 10.
    case margin, candidates
    /// Mean word confidence of the page.
    case pageConfidence
    /// The reconciliation outcome.
    case balanced, repaired, unbalanced
    /// No total line backs the total (it is the subtotal or the items' sum).
    case totalInferred
    /// The vision LLM read the same value, printed on the page; weighed by hand, not fitted
    /// (`docs/extraction-fitting.md`, "Two readers").
    case confirmedByModel
}

/// A feature of one key field's trust model: a shared one (`share`, `balanced`, …) or the winning candidate's own
/// feature of that field (`own.slogan` for a merchant read from a slogan-like line). Raw values are the names in
/// `scripts/fit_extraction/model.json` (`trust.merchant.weights`, …).
public enum TrustFeature<Own: ExtractionFeature>: ExtractionFeature {
    case shared(SharedTrustFeature)
    case own(Own)

    private static var ownPrefix: String { "own." }

    public init?(rawValue: String) {
        if rawValue.hasPrefix(Self.ownPrefix) {
            guard let own = Own(rawValue: String(rawValue.dropFirst(Self.ownPrefix.count))) else { return nil }
            self = .own(own)
        } else {
            guard let shared = SharedTrustFeature(rawValue: rawValue) else { return nil }
            self = .shared(shared)
        }
    }

    public var rawValue: String {
        switch self {
        case .shared(let feature): feature.rawValue
        case .own(let feature): Self.ownPrefix + feature.rawValue
        }
    }

    public static var allCases: [Self] { SharedTrustFeature.allCases.map(Self.shared) + Own.allCases.map(Self.own) }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let feature = Self(rawValue: name) else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "unknown trust feature \(name)")
            )
        }
        self = feature
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// The merchant's trust features (`AutoAcceptance`).
public typealias MerchantTrustFeature = TrustFeature<MerchantFeature>
/// The date's trust features.
public typealias DateTrustFeature = TrustFeature<DateFeature>
/// The total's trust features.
public typealias TotalTrustFeature = TrustFeature<TotalFeature>
