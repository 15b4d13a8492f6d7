import Foundation

/// A key field of an expense: the three a person relies on without looking, each with its own trust model.
public enum KeyField: String, Sendable, Codable, CaseIterable, Comparable {
    case merchant, date, total

    /// The same field as a person corrects it.
    public var correctable: CorrectableField {
        switch self {
        case .merchant: .merchant
        case .date: .date
        case .total: .total
        }
    }

    public static func < (lhs: KeyField, rhs: KeyField) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// How far one key field of a reconciled receipt is trusted: its calibrated probability of being right, the
/// threshold it must clear, and, when it does not, a short why.
public struct FieldTrust: Sendable, Equatable {
    public var field: KeyField
    /// The calibrated probability that the field is right, 0–1.
    public var probability: Double
    /// The probability needed to trust it (chosen on train for ≥ 99% precision on this field).
    public var threshold: Double
    /// Why the field is not trusted, in an operator's words ("read from a line that looks like a slogan"); for a
    /// trusted field, what it was read from.
    public var why: String

    public init(field: KeyField, probability: Double, threshold: Double, why: String) {
        self.field = field
        self.probability = probability
        self.threshold = threshold
        self.why = why
    }

    public var isTrusted: Bool { probability >= threshold }

    /// One line: "merchant not sure (62%, needs 97%): read from a line that looks like a slogan".
    public var summary: String {
        let percent = { (value: Double) in String(format: "%.0f%%", value * 100) }
        return isTrusted
            ? "\(field.rawValue) trusted (\(percent(probability)), needs \(percent(threshold)))"
            : "\(field.rawValue) not sure (\(percent(probability)), needs \(percent(threshold))): \(why)"
    }
}

/// Whether a reconciled receipt is accepted as is or held for a person, with each key field's trust behind it.
public struct AcceptanceDecision: Sendable, Equatable {
    public var status: ExpenseStatus
    /// Merchant, date and total, in that order.
    public var fields: [FieldTrust]

    /// The key fields not trusted (empty for an accepted receipt).
    public var untrusted: [FieldTrust] { fields.filter { !$0.isTrusted } }

    /// The lowest probability of the three, 0–1.
    public var probability: Double { fields.map(\.probability).min() ?? 0 }

    /// Why, in words an operator understands.
    public var reason: String {
        let doubts = untrusted
        return doubts.isEmpty
            ? "merchant, date and total are each trusted: " + fields.map(\.summary).joined(separator: "; ")
            : doubts.map(\.summary).joined(separator: "; ")
    }

    /// The trust of one key field.
    public subscript(field: KeyField) -> FieldTrust? { fields.first { $0.field == field } }
}

/// The one place that decides auto-acceptance: `accepted` means "you need not look at this". Each key field —
/// merchant, date, total — has a calibrated probability of being right from a logistic model over its ranking's
/// evidence (share, margin, the winner's own features), the reconciliation outcome and, with a vision LLM, whether the
/// model read the same; each model was fitted on the training receipts and its threshold chosen there for ≥ 99%
/// precision on its field (`docs/extraction-fitting.md`). A receipt is accepted only when every key field is trusted.
public enum AutoAcceptance {
    /// How the finding of a receipt that only this model held back starts (`ExpenseRecord.findings`); the reason
    /// follows. The SQL function `review_reasons` (migration 0031) lists such a receipt as
    /// `ReviewReason.lowConfidence` by this prefix: change both together (`ReviewStoreTests` checks they agree).
    public static let heldBackFindingPrefix = "not accepted automatically: "

    /// Decides for one reconciled draft.
    public static func decide(_ result: ReconciliationResult, model: TrustModels = ExtractionModel.fitted.trust)
        -> AcceptanceDecision
    {
        let fields = KeyField.allCases.map { trust(of: $0, in: result, model: model[$0]) }
        return AcceptanceDecision(status: fields.allSatisfy(\.isTrusted) ? .accepted : .needsReview, fields: fields)
    }

    /// The trust of one key field under `model`.
    static func trust(of field: KeyField, in result: ReconciliationResult, model: AcceptanceModel) -> FieldTrust {
        guard let features = features(of: field, result) else {
            return FieldTrust(
                field: field, probability: 0, threshold: model.threshold,
                why: isMissing(field, result.draft)
                    ? "no \(field.rawValue) was found"
                    : "it did not come from the ranked candidates, so nothing vouches for it")
        }
        let probability = model.probability(features)
        return FieldTrust(
            field: field, probability: probability, threshold: model.threshold,
            why: explanation(field, features: features, model: model))
    }

    private static func isMissing(_ field: KeyField, _ draft: ExpenseDraft) -> Bool {
        switch field {
        case .merchant: draft.merchant == nil
        case .date: draft.date == nil
        case .total: draft.total == nil
        }
    }

    /// Every key field's features (`features(of:_:)`), nil where the field has no ranked evidence.
    public static func features(_ result: ReconciliationResult) -> [KeyField: CandidateFeatures] {
        var all: [KeyField: CandidateFeatures] = [:]
        for field in KeyField.allCases { all[field] = features(of: field, result) }
        return all
    }

    /// The features of one key field's trust model, or nil when the field has no ranked evidence (not found, or a
    /// later stage put another value in place of the ranked winner): the ranking's share (and its log-odds) and
    /// margin, the winner's own features (`own.`), the page's confidence, the reconciliation outcome, and
    /// `confirmedByModel` when the vision LLM read the same value.
    public static func features(of field: KeyField, _ result: ReconciliationResult) -> CandidateFeatures? {
        let draft = result.draft
        guard let evidence = draft.evidence, let ranked = rankedEvidence(of: field, draft, evidence, result.outcome)
        else { return nil }
        var features: CandidateFeatures = [
            "share": ranked.probability,
            "logOdds": logOdds(ranked.probability),
            "margin": ranked.margin / 10,
            "candidates": Double(min(ranked.candidates, 10)) / 10,
            "pageConfidence": evidence.pageConfidence,
        ]
        switch result.outcome {
        case .balanced: features["balanced"] = 1
        case .repaired: features["repaired"] = 1
        case .unbalanced: features["unbalanced"] = 1
        case .incomplete: break
        }
        if field == .total, draft.isTotalInferred { features["totalInferred"] = 1 }
        for (name, value) in ranked.features { features["own." + name] = value }
        if evidence.confirmedByModel.contains(field) { features[confirmedByModel] = 1 }
        return features
    }

    /// The feature a second reader's agreement sets; its weight is set by hand, not fitted
    /// (`docs/extraction-fitting.md`, "Two readers").
    public static let confirmedByModel = "confirmedByModel"

    /// The ranking's evidence for the draft's value of `field`, when that value is the ranked winner's.
    private static func rankedEvidence(
        of field: KeyField, _ draft: ExpenseDraft, _ evidence: ExtractionEvidence, _ outcome: ReconciliationOutcome
    ) -> CandidateEvidence? {
        switch field {
        case .merchant:
            guard let merchant = draft.merchant, merchant.value == evidence.merchantValue else { return nil }
            return evidence.merchant
        case .date:
            guard let date = draft.date, date.value == evidence.dateValue else { return nil }
            return evidence.date
        case .total:
            guard let total = draft.total, evidence.totalValue == total.value || outcome == .repaired else {
                return nil
            }
            return evidence.total
        }
    }

    /// The log-odds of the winner's softmax share, clipped to ±10 and scaled to ±1: the scale on which a logistic
    /// model weighs a share near 1 (0.99 and 0.999 differ there, as they do in how often the field is right).
    static func logOdds(_ probability: Double) -> Double {
        let share = min(max(probability, 1e-6), 1 - 1e-6)
        return min(10, max(-10, log(share / (1 - share)))) / 10
    }

    /// Why a field's probability is what it is: the feature that pulls it down most, in words, else how the ranking
    /// stood.
    static func explanation(_ field: KeyField, features: CandidateFeatures, model: AcceptanceModel) -> String {
        let pulls = features.compactMap { name, value -> (String, Double)? in
            guard let phrase = phrases[name], let weight = model.weights[name], weight * value < 0 else { return nil }
            return (phrase, weight * value)
        }
        if let strongest = pulls.min(by: { $0.1 < $1.1 || $0.1 == $1.1 && $0.0 < $1.0 }) {
            return strongest.0
        }
        let share = String(format: "%.0f%%", (features["share"] ?? 0) * 100)
        return "another reading was close (the chosen one has \(share) of the ranking)"
    }

    /// What a feature that lowers a field's probability means, in an operator's words.
    static let phrases: [String: String] = [
        "own.slogan": "read from a line that looks like a slogan",
        "own.placeOrPhone": "read from a line with a place name or phone number",
        "own.streetAndNumber": "read from a line that looks like an address",
        "own.streetWord": "read from a line that looks like an address",
        "own.stateAndZip": "read from a line that looks like an address",
        "own.furnitureWords": "read from a line of receipt wording (phone, invoice, cashier…)",
        "own.noRealWord": "the line it was read from has no real word",
        "own.digits": "the name has digits in it",
        "own.amount": "read from a line with an amount on it",
        "own.wordLinesAbove": "other lines above it could be the name",
        "own.ambiguousOrder": "day and month could be either way round",
        "own.expiryWord": "read from a line that looks like an expiry date",
        "own.twoDigitYear": "the year is printed with two digits",
        "own.notPositive": "the amount is zero or negative",
        "own.subtotalLine": "read from a subtotal line",
        "unbalanced": "the amounts on the receipt do not add up",
        "totalInferred": "no total line backs it; it is the subtotal or the items' sum",
    ]
}
