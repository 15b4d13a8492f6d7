import Foundation

/// Named features of one candidate (a line that could be the merchant, an amount that could be the total, a string
/// that could be the date), each a small number: an indicator (0 or 1), a share or a clipped count.
public typealias CandidateFeatures = [String: Double]

/// The weights that rank candidates and decide auto-acceptance, fitted on the training receipts by
/// `scripts/fit-extraction` (see `docs/extraction-fitting.md`); `ExtractionModel.fitted` is the committed fit.
public struct ExtractionModel: Sendable, Equatable, Codable {
    /// Linear weights per feature name for each field's candidates; a missing name weighs 0.
    public var total: [String: Double]
    public var merchant: [String: Double]
    public var date: [String: Double]
    /// The calibrated probability that each key field is right, and the threshold for trusting it.
    public var trust: TrustModels

    public init(
        total: [String: Double], merchant: [String: Double], date: [String: Double], trust: TrustModels
    ) {
        self.total = total
        self.merchant = merchant
        self.date = date
        self.trust = trust
    }

    /// The linear score of a candidate under `weights`, summed in name order so that equal candidates score
    /// exactly equal (a dictionary's order differs between processes).
    static func score(_ features: CandidateFeatures, _ weights: [String: Double]) -> Double {
        features.keys.sorted().reduce(0) { $0 + (weights[$1] ?? 0) * features[$1, default: 0] }
    }
}

/// One calibrated model per key field: a receipt is accepted only when every key field is trusted
/// (`AutoAcceptance`, `docs/extraction-fitting.md`).
public struct TrustModels: Sendable, Equatable, Codable {
    public var merchant: AcceptanceModel
    public var date: AcceptanceModel
    public var total: AcceptanceModel

    public init(merchant: AcceptanceModel, date: AcceptanceModel, total: AcceptanceModel) {
        self.merchant = merchant
        self.date = date
        self.total = total
    }

    /// The model of one key field.
    public subscript(field: KeyField) -> AcceptanceModel {
        switch field {
        case .merchant: merchant
        case .date: date
        case .total: total
        }
    }
}

/// Logistic regression over one field's features: P(field right) = σ(intercept + Σ wᵢ·xᵢ).
public struct AcceptanceModel: Sendable, Equatable, Codable {
    public var intercept: Double
    public var weights: [String: Double]
    /// Trust the field when the probability is at least this (chosen on the training receipts for ≥ 99% precision).
    public var threshold: Double

    public init(intercept: Double, weights: [String: Double], threshold: Double) {
        self.intercept = intercept
        self.weights = weights
        self.threshold = threshold
    }

    /// The calibrated probability for these features.
    public func probability(_ features: CandidateFeatures) -> Double {
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
    /// The winner's own features (keywords, arithmetic support, the shape of its line).
    public var features: CandidateFeatures

    public init(probability: Double, margin: Double, candidates: Int, features: CandidateFeatures = [:]) {
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
    public var total: CandidateEvidence?
    public var merchant: CandidateEvidence?
    public var date: CandidateEvidence?
    /// Mean word confidence of the page, 0–1.
    public var pageConfidence: Double
    /// The key fields a second, independent reader (the vision LLM) read the same as the rules, on printed lines.
    public var confirmedByModel: Set<KeyField>

    public init(
        totalValue: Decimal? = nil, merchantValue: String? = nil, dateValue: ReceiptDate? = nil,
        total: CandidateEvidence? = nil, merchant: CandidateEvidence? = nil, date: CandidateEvidence? = nil,
        pageConfidence: Double = 0, confirmedByModel: Set<KeyField> = []
    ) {
        self.totalValue = totalValue
        self.merchantValue = merchantValue
        self.dateValue = dateValue
        self.total = total
        self.merchant = merchant
        self.date = date
        self.pageConfidence = pageConfidence
        self.confirmedByModel = confirmedByModel
    }

    /// The winning total's own features (keywords, arithmetic support).
    public var totalFeatures: CandidateFeatures { total?.features ?? [:] }
}

/// A field's candidates ranked by a fitted linear score.
struct RankedCandidates<Candidate> {
    var candidates: [Candidate]
    var features: [CandidateFeatures]
    var scores: [Double]

    init(_ candidates: [Candidate], features: (Candidate) -> CandidateFeatures, weights: [String: Double]) {
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
    var evidence: CandidateEvidence? {
        guard let bestIndex else { return nil }
        let top = scores[bestIndex]
        let sum = scores.reduce(0) { $0 + exp($1 - top) }
        let runnerUp = scores.indices.filter { $0 != bestIndex }.map { scores[$0] }.max()
        return CandidateEvidence(
            probability: 1 / sum, margin: runnerUp.map { min(10, top - $0) } ?? 10, candidates: candidates.count,
            features: features[bestIndex])
    }
}
