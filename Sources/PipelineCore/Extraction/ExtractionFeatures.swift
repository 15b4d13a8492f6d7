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
    case brandOnLegalLine
    case companyWord
    case digits
    case firstWordLine
    case furnitureWords
    case headerNamesBrand
    case headerPass
    case inWebsite
    case joinedGenericName
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
    case position
    case repeats
    case timeOnLine
    case twoDigitYear
}

/// Receipt-level features of the acceptance model (`AutoAcceptance`): the ranking's confidence in the total, the
/// reconciliation outcome, and the winning total's own support (`total.…`).
public enum AcceptanceFeature: String, ExtractionFeature {
    case balanced
    case pageConfidence
    case repaired
    case totalItemsSum = "total.itemsSum"
    case totalOCRConfidence = "total.ocrConfidence"
    case totalRepeats = "total.repeats"
    case totalRoundedOfPair = "total.roundedOfPair"
    case totalStrongTotalLine = "total.strongTotalLine"
    case totalSubtotalPlusTax = "total.subtotalPlusTax"
    case totalTenderedLessChange = "total.tenderedLessChange"
    case totalTenderedLessChangeOnly = "total.tenderedLessChangeOnly"
    case totalTotalLine = "total.totalLine"
    case totalInferred
    case totalLogOdds
    case totalMargin
    case totalProbability
    case unbalanced

    /// The winning total's own feature this one carries (`total.itemsSum` carries `itemsSum`), nil for the others.
    public var totalFeature: TotalFeature? {
        guard rawValue.hasPrefix("total.") else { return nil }
        return TotalFeature(rawValue: String(rawValue.dropFirst("total.".count)))
    }
}
