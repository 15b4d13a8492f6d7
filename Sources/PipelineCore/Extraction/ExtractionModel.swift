import Foundation

/// The weights that rank candidates and decide auto-acceptance, fitted on the training receipts by
/// `scripts/fit-extraction` (see `docs/extraction-fitting.md`); `ExtractionModel.fitted` is the committed fit.
public struct ExtractionModel: Sendable, Equatable, Codable {
    /// Linear weights per feature for each field's candidates; a feature the fit left out weighs 0.
    public var total: [TotalFeature: Double]
    public var merchant: [MerchantFeature: Double]
    public var date: [DateFeature: Double]
    /// The calibrated probability that each key field is right, and the threshold for trusting it, per reader.
    public var trust: TrustCalibrations

    public init(
        total: [TotalFeature: Double], merchant: [MerchantFeature: Double], date: [DateFeature: Double],
        trust: TrustCalibrations
    ) {
        self.total = total
        self.merchant = merchant
        self.date = date
        self.trust = trust
    }

    /// The linear score of a candidate under `weights`, summed in name order so that equal candidates score
    /// exactly equal (a dictionary's order differs between processes).
    static func score<Feature: ExtractionFeature>(_ features: CandidateFeatures<Feature>, _ weights: [Feature: Double])
        -> Double
    {
        features.keys.sorted { $0.rawValue < $1.rawValue }.reduce(0) {
            $0 + (weights[$1] ?? 0) * features[$1, default: 0]
        }
    }
}

/// What read a page's text, as far as trusting it goes: readers differ in how often a confident-looking reading is
/// wrong (Tesseract misreads more of the phone photos PP-OCR reads well), so each has its own trust models, fitted
/// and thresholded on its own pages (`docs/extraction-fitting.md`).
public enum PageReader: String, Sendable, CaseIterable, Codable {
    case ppocr, tesseract

    /// The reader whose calibration fits a page read by `engine` from `source`. PP-OCR's and Tesseract's lines
    /// together (`both`) are held to Tesseract's, the less reliable reader's; a born-digital PDF's exact text to
    /// PP-OCR's, the most accurate reader the models were fitted on.
    public init(engine: OCREngineChoice, source: PageSource) {
        switch (engine, source) {
        case (_, .pdfText), (.ppocr, .ocr): self = .ppocr
        case (.tesseract, .ocr), (.both, .ocr): self = .tesseract
        }
    }
}

/// The trust models of each reader (`PageReader`).
public struct TrustCalibrations: Sendable, Equatable, Codable {
    public var ppocr: TrustModels
    public var tesseract: TrustModels

    public init(ppocr: TrustModels, tesseract: TrustModels) {
        self.ppocr = ppocr
        self.tesseract = tesseract
    }

    /// The models fitted on `reader`'s pages.
    public subscript(reader: PageReader) -> TrustModels {
        switch reader {
        case .ppocr: ppocr
        case .tesseract: tesseract
        }
    }
}

/// One calibrated model per key field: a receipt is accepted only when every key field is trusted and no
/// reconciliation reason in `holds` applies (`AutoAcceptance`, `ReviewPolicy`, `docs/extraction-fitting.md`).
public struct TrustModels: Sendable, Equatable, Codable {
    public var merchant: TrustModel<MerchantFeature>
    public var date: TrustModel<DateFeature>
    public var total: TrustModel<TotalFeature>
    /// The reconciliation reasons (`unbalanced`, `incomplete`) that hold a receipt even when its key fields are
    /// trusted; one left out is a finding only (items that do not add up: an optional item check).
    public var holds: Set<ReviewReason>
    /// The thresholds and holds the fit chose for each trust budget (`acceptance.maxSilentPer100`), lowest budget
    /// first; the models' own thresholds and `holds` are those of the budget in use (`atBudget`).
    public var budgets: [TrustBudgetPoint]

    /// The reconciliation reasons a budget point may let go of.
    public static let reconciliationHolds: Set<ReviewReason> = [.unbalanced, .incomplete]

    public init(
        merchant: TrustModel<MerchantFeature>, date: TrustModel<DateFeature>, total: TrustModel<TotalFeature>,
        holds: Set<ReviewReason> = reconciliationHolds, budgets: [TrustBudgetPoint] = []
    ) {
        self.merchant = merchant
        self.date = date
        self.total = total
        self.holds = holds
        self.budgets = budgets
    }

    /// The fitted point for a budget of at most `maxSilentPer100` silent errors per 100 receipts: the one with the
    /// largest budget not above it (the lowest budget when every point is above); nil when the fit has no points.
    public func point(forBudget maxSilentPer100: Double) -> TrustBudgetPoint? {
        budgets.last { $0.maxSilentPer100 <= maxSilentPer100 + 1e-9 } ?? budgets.first
    }

    /// These models with the thresholds and holds of the point for `maxSilentPer100` (unchanged without points).
    public func atBudget(_ maxSilentPer100: Double) -> TrustModels {
        guard let point = point(forBudget: maxSilentPer100) else { return self }
        var models = self
        models.merchant.threshold = point.merchant
        models.date.threshold = point.date
        models.total.threshold = point.total
        models.holds = point.holds
        return models
    }

    private enum CodingKeys: String, CodingKey { case merchant, date, total, holds, budgets }

    /// Decodes models written before budgets existed (no `holds`, no `budgets`) as today's rule: both hold.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            merchant: try container.decode(TrustModel<MerchantFeature>.self, forKey: .merchant),
            date: try container.decode(TrustModel<DateFeature>.self, forKey: .date),
            total: try container.decode(TrustModel<TotalFeature>.self, forKey: .total),
            holds: try container.decodeIfPresent(Set<ReviewReason>.self, forKey: .holds) ?? Self.reconciliationHolds,
            budgets: try container.decodeIfPresent([TrustBudgetPoint].self, forKey: .budgets) ?? [])
    }
}

/// One point of the trade-off between touches and silent errors, chosen by the fit (`fit.py budget_points`) on the
/// out-of-fold train pages of one reader: the three thresholds and the reconciliation holds that send the fewest
/// receipts to a person while at most `maxSilentPer100` of every 100 are accepted with a wrong merchant, date or
/// total.
public struct TrustBudgetPoint: Sendable, Equatable, Codable {
    /// The budget: silent errors per 100 receipts allowed (out of fold on train).
    public var maxSilentPer100: Double
    /// Each key field's threshold at this point.
    public var merchant: Double
    public var date: Double
    public var total: Double
    /// The reconciliation reasons that still hold a receipt at this point.
    public var holds: Set<ReviewReason>
    /// What the fit measured at this point, out of fold on train: receipts sent to a person, and accepted with a
    /// key field wrong, per 100.
    public var touchesPer100: Double
    public var silentPer100: Double

    public init(
        maxSilentPer100: Double, merchant: Double, date: Double, total: Double, holds: Set<ReviewReason>,
        touchesPer100: Double, silentPer100: Double
    ) {
        self.maxSilentPer100 = maxSilentPer100
        self.merchant = merchant
        self.date = date
        self.total = total
        self.holds = holds
        self.touchesPer100 = touchesPer100
        self.silentPer100 = silentPer100
    }
}

/// Logistic regression over one key field's trust features: P(field right) = σ(intercept + Σ wᵢ·xᵢ).
public struct TrustModel<Own: ExtractionFeature>: Sendable, Equatable, Codable {
    public var intercept: Double
    public var weights: [TrustFeature<Own>: Double]
    /// Trust the field when the probability is at least this (the fit's threshold at the trust budget in use).
    public var threshold: Double

    public init(intercept: Double, weights: [TrustFeature<Own>: Double], threshold: Double) {
        self.intercept = intercept
        self.weights = weights
        self.threshold = threshold
    }

    /// The calibrated probability for these features.
    public func probability(_ features: CandidateFeatures<TrustFeature<Own>>) -> Double {
        1 / (1 + exp(-(intercept + ExtractionModel.score(features, weights))))
    }
}

/// How one field's winning candidate stood against the others: the basis of that field's trust.
public struct CandidateEvidence<Feature: ExtractionFeature>: Sendable, Equatable, Codable {
    /// Softmax share of the winner among the field's candidates, 0–1 (the merchant's: of every candidate of its name).
    public var probability: Double
    /// Score of the winner minus the runner-up's (a large number when there was no runner-up).
    public var margin: Double
    public var candidates: Int
    /// The winner's own features (keywords, arithmetic support, the shape of its line).
    public var features: CandidateFeatures<Feature>

    public init(probability: Double, margin: Double, candidates: Int, features: CandidateFeatures<Feature> = [:]) {
        self.probability = probability
        self.margin = margin
        self.candidates = candidates
        self.features = features
    }
}

/// What the rules' scores said about the draft's fields, kept on the draft for the acceptance decision.
public struct ExtractionEvidence: Sendable, Equatable, Codable {
    /// The values the evidence is about (a later stage that replaces a field invalidates its evidence).
    public var totalValue: Decimal?
    public var merchantValue: String?
    public var dateValue: ReceiptDate?
    public var total: CandidateEvidence<TotalFeature>?
    public var merchant: CandidateEvidence<MerchantFeature>?
    public var date: CandidateEvidence<DateFeature>?
    /// Mean word confidence of the page, 0–1.
    public var pageConfidence: Double
    /// What read the page: its trust models are that reader's.
    public var reader: PageReader
    /// The key fields a second, independent reader (the vision LLM) read the same as the rules, on printed lines.
    public var confirmedByModel: Set<KeyField>
    /// How the total and date agree with the learned layout of the known merchant the page was read as; nil when
    /// neither does.
    public var layoutAgreement: LayoutAgreement?
    /// The page prints the merchant's name twice, on top and in a legal entity's line (`MerchantExtractor`'s
    /// `Candidate.isNamedTwice`): what lets the page vouch for it (`AutoAcceptance.namedTwiceVouch`).
    public var merchantNamedTwice = false

    public init(
        totalValue: Decimal? = nil, merchantValue: String? = nil, dateValue: ReceiptDate? = nil,
        total: CandidateEvidence<TotalFeature>? = nil, merchant: CandidateEvidence<MerchantFeature>? = nil,
        date: CandidateEvidence<DateFeature>? = nil, pageConfidence: Double = 0, reader: PageReader = .ppocr,
        confirmedByModel: Set<KeyField> = []
    ) {
        self.reader = reader
        self.totalValue = totalValue
        self.merchantValue = merchantValue
        self.dateValue = dateValue
        self.total = total
        self.merchant = merchant
        self.date = date
        self.pageConfidence = pageConfidence
        self.confirmedByModel = confirmedByModel
    }
}

/// A field's candidates ranked by a fitted linear score.
struct RankedCandidates<Candidate, Feature: ExtractionFeature> {
    var candidates: [Candidate]
    var features: [CandidateFeatures<Feature>]
    var scores: [Double]

    init(_ candidates: [Candidate], features: (Candidate) -> CandidateFeatures<Feature>, weights: [Feature: Double]) {
        self.candidates = candidates
        self.features = candidates.map(features)
        self.scores = self.features.map { ExtractionModel.score($0, weights) }
    }

    /// Index of the best candidate: the highest score, the earliest on ties.
    var bestIndex: Int? {
        scores.indices.max { scores[$0] < scores[$1] || scores[$0] == scores[$1] && $0 > $1 }
    }

    var best: Candidate? { bestIndex.map { candidates[$0] } }

    /// The winner's softmax share and margin over the runner-up, with its features.
    var evidence: CandidateEvidence<Feature>? { evidence(answer: { _ in nil }) }

    /// The winner's evidence, its share being that of its answer: every candidate whose `answer` is the winner's
    /// (not nil) counts in it, as a page that prints its name twice (`Getränke Fuchs` on top and in the legal line)
    /// gives one name, not two rivals. The margin stays the score over the runner-up.
    func evidence(answer: (Candidate) -> String?) -> CandidateEvidence<Feature>? {
        guard let bestIndex else { return nil }
        let top = scores[bestIndex]
        let sum = scores.reduce(0) { $0 + exp($1 - top) }
        let winnerAnswer = answer(candidates[bestIndex])
        let shared = scores.indices.filter {
            $0 == bestIndex || winnerAnswer != nil && answer(candidates[$0]) == winnerAnswer
        }
        .reduce(0) { $0 + exp(scores[$1] - top) }
        let runnerUp = scores.indices.filter { $0 != bestIndex }.map { scores[$0] }.max()
        return CandidateEvidence(
            probability: shared / sum, margin: runnerUp.map { min(10, top - $0) } ?? 10,
            candidates: candidates.count, features: features[bestIndex])
    }
}
