import Foundation

/// Whether a reconciled receipt is accepted as is or held for a person, with the calibrated probability behind it.
public struct AcceptanceDecision: Sendable, Equatable {
    public var status: ExpenseStatus
    /// The calibrated probability that the committed total is right, 0–1.
    public var probability: Double
    /// Why, in words an operator understands.
    public var reason: String
}

/// The one place that decides auto-acceptance: `accepted` means "you need not look at this". The probability that
/// the total is right comes from a logistic model over the reconciliation outcome and the candidates' evidence,
/// calibrated on the training receipts; the threshold was chosen there for ≥ 99% precision
/// (`docs/extraction-fitting.md`).
public enum AutoAcceptance {
    /// Decides for one reconciled draft.
    public static func decide(
        _ result: ReconciliationResult, model: AcceptanceModel = ExtractionModel.fitted.acceptance
    ) -> AcceptanceDecision {
        guard let features = features(result) else {
            return AcceptanceDecision(
                status: .needsReview, probability: 0,
                reason: result.draft.total == nil
                    ? "no total was found"
                    : "the total did not come from the ranked candidates, so nothing vouches for it")
        }
        let probability = model.probability(features)
        let percent = String(format: "%.1f%%", probability * 100)
        let threshold = String(format: "%.1f%%", model.threshold * 100)
        return probability >= model.threshold
            ? AcceptanceDecision(
                status: .accepted, probability: probability,
                reason: "the total is right with probability \(percent) (accepting from \(threshold))")
            : AcceptanceDecision(
                status: .needsReview, probability: probability,
                reason: "the total is right with probability \(percent), below the \(threshold) needed to accept it")
    }

    /// The receipt-level features of the acceptance model, or nil when the draft's total has no ranked evidence (no
    /// total, or one a later stage put in place of the ranked winner).
    public static func features(_ result: ReconciliationResult) -> CandidateFeatures<AcceptanceFeature>? {
        let draft = result.draft
        guard let total = draft.total, let evidence = draft.evidence, let ranked = evidence.total,
            evidence.totalValue == total.value || result.outcome == .repaired
        else { return nil }
        var features: CandidateFeatures<AcceptanceFeature> = [
            .totalProbability: ranked.probability,
            .totalLogOdds: logOdds(ranked.probability),
            .totalMargin: ranked.margin / 10,
            .pageConfidence: evidence.pageConfidence,
        ]
        switch result.outcome {
        case .balanced: features[.balanced] = 1
        case .repaired: features[.repaired] = 1
        case .unbalanced: features[.unbalanced] = 1
        case .incomplete: break
        }
        if draft.isTotalInferred { features[.totalInferred] = 1 }
        // The winning total's own features that speak for it beyond the ranking (`total.…`).
        for feature in AcceptanceFeature.allCases {
            if let support = feature.totalFeature, let value = evidence.totalFeatures[support] {
                features[feature] = value
            }
        }
        return features
    }

    /// The log-odds of the winner's softmax share, clipped to ±10 and scaled to ±1: the scale on which a logistic
    /// model weighs a share near 1 (0.99 and 0.999 differ there, as they do in how often the total is right).
    static func logOdds(_ probability: Double) -> Double {
        let share = min(max(probability, 1e-6), 1 - 1e-6)
        return min(10, max(-10, log(share / (1 - share)))) / 10
    }

}
