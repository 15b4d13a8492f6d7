import Foundation

/// The weights that rank candidates and decide auto-acceptance, fitted on the training receipts by
/// `scripts/fit-extraction` (see `docs/extraction-fitting.md`); `ExtractionModel.fitted` is the committed fit.
public struct ExtractionModel: Sendable, Equatable, Codable {
    /// Linear weights per feature for each field's candidates; a feature the fit left out weighs 0.
    public var total: [TotalFeature: Double]
    public var merchant: [MerchantFeature: Double]
    public var date: [DateFeature: Double]
    /// The calibrated probability that the committed total is right, and the threshold for auto-accepting it.
    public var acceptance: AcceptanceModel

    public init(
        total: [TotalFeature: Double], merchant: [MerchantFeature: Double], date: [DateFeature: Double],
        acceptance: AcceptanceModel
    ) {
        self.total = total
        self.merchant = merchant
        self.date = date
        self.acceptance = acceptance
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

/// Logistic regression over receipt-level features: P(total right) = σ(intercept + Σ wᵢ·xᵢ).
public struct AcceptanceModel: Sendable, Equatable, Codable {
    public var intercept: Double
    public var weights: [AcceptanceFeature: Double]
    /// Accept when the probability is at least this (chosen on the training receipts for ≥ 99% precision).
    public var threshold: Double

    public init(intercept: Double, weights: [AcceptanceFeature: Double], threshold: Double) {
        self.intercept = intercept
        self.weights = weights
        self.threshold = threshold
    }

    /// The calibrated probability for these features.
    public func probability(_ features: CandidateFeatures<AcceptanceFeature>) -> Double {
        1 / (1 + exp(-(intercept + ExtractionModel.score(features, weights))))
    }
}

/// How one field's winning candidate stood against the others: the basis of the acceptance probability.
public struct CandidateEvidence: Sendable, Equatable, Codable {
    /// Softmax share of the winner among the field's candidates, 0–1.
    public var probability: Double
    /// Score of the winner minus the runner-up's (a large number when there was no runner-up).
    public var margin: Double
    public var candidates: Int

    public init(probability: Double, margin: Double, candidates: Int) {
        self.probability = probability
        self.margin = margin
        self.candidates = candidates
    }
}

/// What the rules' scores said about the draft's fields, kept on the draft for the acceptance decision.
public struct ExtractionEvidence: Sendable, Equatable, Codable {
    /// The total the evidence is about (a later stage that replaces the total invalidates it).
    public var totalValue: Decimal?
    public var total: CandidateEvidence?
    public var merchant: CandidateEvidence?
    public var date: CandidateEvidence?
    /// The winning total's own features (keywords, arithmetic support).
    public var totalFeatures: CandidateFeatures<TotalFeature>
    /// Mean word confidence of the page, 0–1.
    public var pageConfidence: Double

    public init(
        totalValue: Decimal? = nil, total: CandidateEvidence? = nil, merchant: CandidateEvidence? = nil,
        date: CandidateEvidence? = nil, totalFeatures: CandidateFeatures<TotalFeature> = [:], pageConfidence: Double = 0
    ) {
        self.totalValue = totalValue
        self.total = total
        self.merchant = merchant
        self.date = date
        self.totalFeatures = totalFeatures
        self.pageConfidence = pageConfidence
    }
}

/// A field's candidates ranked by a fitted linear score.
struct RankedCandidates<Candidate, Feature: ExtractionFeature> {
    var candidates: [Candidate]
    var scores: [Double]

    init(_ candidates: [Candidate], features: (Candidate) -> CandidateFeatures<Feature>, weights: [Feature: Double]) {
        self.candidates = candidates
        self.scores = candidates.map { ExtractionModel.score(features($0), weights) }
    }

    /// Index of the best candidate: the highest score, the earliest on ties.
    var bestIndex: Int? {
        scores.indices.max { scores[$0] < scores[$1] || scores[$0] == scores[$1] && $0 > $1 }
    }

    var best: Candidate? { bestIndex.map { candidates[$0] } }

    /// The winner's softmax share and margin over the runner-up.
    var evidence: CandidateEvidence? {
        guard let bestIndex else { return nil }
        let top = scores[bestIndex]
        let sum = scores.reduce(0) { $0 + exp($1 - top) }
        let runnerUp = scores.indices.filter { $0 != bestIndex }.map { scores[$0] }.max()
        return CandidateEvidence(
            probability: 1 / sum, margin: runnerUp.map { min(10, top - $0) } ?? 10, candidates: candidates.count)
    }
}
