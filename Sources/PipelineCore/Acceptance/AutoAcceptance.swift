import Foundation

/// How far one key field of a reconciled receipt is trusted: its calibrated probability of being right, the
/// threshold it must clear, and, when it does not, a short why.
public struct FieldTrust: Sendable, Equatable {
    public var field: KeyField
    /// The calibrated probability that the field is right, 0–1.
    public var probability: Double
    /// The probability needed to trust it (the fit's threshold at the trust budget in use).
    public var threshold: Double
    /// Why the field is not trusted, in an operator's words ("read from a line that looks like a slogan").
    public var why: String
    /// What trusts it whatever its probability (a known merchant's layout or header, a known brand); nil when nothing
    /// does.
    public var vouchedBy: Vouch?
    /// Nothing was read for the field: a person must enter it, and no probability is worth showing.
    public var isMissing: Bool

    public init(
        field: KeyField, probability: Double, threshold: Double, why: String, vouchedBy: Vouch? = nil,
        isMissing: Bool = false
    ) {
        self.field = field
        self.probability = probability
        self.threshold = threshold
        self.why = why
        self.vouchedBy = vouchedBy
        self.isMissing = isMissing
    }

    /// Its probability reaches the threshold, or something vouches for it.
    public var isTrusted: Bool { probability >= threshold || vouchedBy != nil }

    /// The probability as the commit stores it (`field_sources.trust`): to a millionth, so that rounding never makes
    /// a probability just below its threshold read as reaching it.
    public var storedProbability: Double { (probability * 1_000_000).rounded() / 1_000_000 }

    /// The probability against the threshold: "62%, needs 97%", with as many decimals as it takes for the two to
    /// read apart when they differ ("97.6%, needs 97.8%", never "98%, needs 98%").
    public var odds: String { Self.odds(probability, needs: threshold) }

    /// `probability` against `threshold` as `odds` writes them (the review page's "sure" column too).
    public static func odds(_ probability: Double, needs threshold: Double) -> String {
        let decimals =
            (0...3).first { places in
                percent(probability, places) != percent(threshold, places)
            } ?? 3
        return "\(percent(probability, decimals)), needs \(percent(threshold, decimals))"
    }

    /// `value` as a percentage with `places` decimals.
    static func percent(_ value: Double, _ places: Int) -> String {
        String(format: "%.\(places)f%%", value * 100)
    }
}

/// Whether a reconciled receipt is accepted as is or held for a person, with each key field's trust behind it.
public struct AcceptanceDecision: Sendable, Equatable {
    public var status: ExpenseStatus
    /// Merchant, date and total, in that order.
    public var fields: [FieldTrust]
    /// The reconciliation reasons that hold the receipt at the trust budget in use (`TrustModels.holds`): items that
    /// do not add up on a receipt whose key fields are trusted are a finding only when the fit let go of `unbalanced`.
    public var holds: Set<ReviewReason>

    public init(fields: [FieldTrust], holds: Set<ReviewReason> = TrustModels.reconciliationHolds) {
        self.status = fields.allSatisfy(\.isTrusted) ? .accepted : .needsReview
        self.fields = fields
        self.holds = holds
    }

    /// The key fields not trusted (empty for an accepted receipt); `ReviewPolicy` gives each its own reason.
    public var untrusted: [FieldTrust] { fields.filter { !$0.isTrusted } }

    /// The lowest probability of the three, 0–1.
    public var probability: Double { fields.map(\.probability).min() ?? 0 }

    /// Why, in words an operator understands: each field's probability against its threshold.
    public var reason: String {
        (status == .accepted ? "each key field trusted: " : "not every key field trusted: ")
            + fields.map { field in
                "\(field.field.rawValue) \(field.odds)" + (field.vouchedBy.map { " (\($0))" } ?? "")
            }.joined(separator: "; ")
    }

    /// The trust of one key field.
    public subscript(field: KeyField) -> FieldTrust? { fields.first { $0.field == field } }
}

/// The one place that weighs the evidence for auto-acceptance (`ReviewPolicy` makes the decision from it): each key
/// field — merchant, date, total — has a calibrated probability of being right from a logistic model over its
/// ranking's evidence (share, margin, the winner's own features), the page, the reconciliation outcome and, with a
/// vision LLM, whether the model read the same; each model was fitted on the training receipts, one set of models
/// per OCR engine (`PageReader`), and the three thresholds chosen there jointly for each trust budget: the fewest
/// receipts sent to a person while at most `acceptance.maxSilentPer100` in 100 are accepted with a key field wrong
/// (`docs/extraction-fitting.md`). A receipt is accepted only when every key field is trusted.
public enum AutoAcceptance {
    /// The trust budget when none is configured: at most one receipt in 100 accepted with a wrong key field.
    public static let defaultMaxSilentPer100 = 1.0

    /// Decides for one reconciled draft with the trust models of the reader that read its page, at the fitted point
    /// of the budget `maxSilentPer100`.
    public static func decide(
        _ result: ReconciliationResult, calibrations: TrustCalibrations = ExtractionModel.fitted.trust,
        maxSilentPer100: Double = defaultMaxSilentPer100
    ) -> AcceptanceDecision {
        decide(result, model: calibrations[result.draft.evidence?.reader ?? .ppocr].atBudget(maxSilentPer100))
    }

    /// Decides for one reconciled draft under `model`.
    public static func decide(_ result: ReconciliationResult, model: TrustModels) -> AcceptanceDecision {
        let evidence = result.draft.evidence
        return AcceptanceDecision(
            fields: [
                trust(.merchant, evidence?.merchant, in: result, model: model.merchant),
                trust(.date, evidence?.date, in: result, model: model.date),
                trust(.total, evidence?.total, in: result, model: model.total),
            ], holds: model.holds)
    }

    /// The trust of one key field under `model`.
    static func trust<Own>(
        _ field: KeyField, _ ranked: CandidateEvidence<Own>?, in result: ReconciliationResult, model: TrustModel<Own>
    ) -> FieldTrust {
        guard let features = features(of: field, ranked, result) else {
            let isMissing = isMissing(field, result.draft)
            return FieldTrust(
                field: field, probability: 0, threshold: model.threshold,
                why: isMissing
                    ? "no \(field.rawValue) was found on the receipt; enter it by hand"
                    : "it did not come from the ranked candidates, so nothing vouches for it",
                isMissing: isMissing)
        }
        let probability = model.probability(features)
        return FieldTrust(
            field: field, probability: probability, threshold: model.threshold,
            why: explanation(features: features, model: model),
            vouchedBy: layoutVouch(field, result) ?? pageVouch(field, result))
    }

    /// What on the page itself vouches for `field`: a known brand for the merchant, the arithmetic for the total.
    static func pageVouch(_ field: KeyField, _ result: ReconciliationResult) -> Vouch? {
        switch field {
        case .merchant: brandVouch(result.draft) ?? namedTwiceVouch(result.draft)
        case .date: nil
        case .total: arithmeticVouch(result)
        }
    }

    /// A known brand vouching for the merchant: the name is a brand's own name read whole and exactly
    /// (`BrandIndex`), as the page's first line, of a brand that operates in the country the page shows
    /// (`CountryEvidence.countries`), and not an everyday word. The logistic trust model adds the brand's weight
    /// to every brand reading, right or not; read this way the name was right on every train and dev receipt
    /// (55 of 55, PP-OCR; docs/extraction-fitting.md, "A known brand on the first line"), while the rest of the
    /// model held many of them. Only the merchant: the date and total must still be trusted on their own.
    static func brandVouch(_ draft: ExpenseDraft) -> Vouch? {
        guard let features = draft.evidence?.merchant?.features, features[.brand] == 1,
            features[.brandInCountry] == 1, (features[.position] ?? 0) == 0, features[.brandInsideLine] == nil,
            features[.brandEverydayWord] == nil
        else { return nil }
        return .knownBrand
    }

    /// The page vouching for the merchant by printing its name twice: a top line without a legal form and another
    /// line, a legal entity's (`Frischmarkt Hofmann` on top, `Frischmarkt Hofmann GmbH` at the foot), read alike
    /// (`ExtractionEvidence.merchantNamedTwice`), whichever of the two won, while the draft still reads that name. Two
    /// prints of one name, one where the law has a business state who it is, leave no other name the page could mean.
    /// Train and dev pages hardly print it (their header is itself the legal line), so it is a rule with its precision
    /// measured, not a fitted weight (docs/extraction-fitting.md, "The name printed twice"). Only the merchant: the
    /// date and total must still be trusted on their own.
    static func namedTwiceVouch(_ draft: ExpenseDraft) -> Vouch? {
        guard let evidence = draft.evidence, evidence.merchantNamedTwice,
            draft.merchant?.value == evidence.merchantValue
        else { return nil }
        return .namedTwice
    }

    /// The page's arithmetic vouching for the total: the payment (tendered less change, or the amount paid) and a
    /// sum (the line items, the summary, or the VAT table) each tie the printed total to amounts read apart from it
    /// (`ReconciliationResult.totalConfirmations`), with no digit repaired; a total that is the subtotal or the items'
    /// sum (no total line of its own) has two items or more and the payment. Two sums of other amounts rarely agree on a
    /// misread total: on the train and dev pages (PP-OCR and Tesseract) and the generated ones, 4 of the 785 totals
    /// confirmed this way differ from their label, on 3 receipts whose page prints the total read, a label's slip
    /// (docs/extraction-fitting.md, "The total confirmed twice"; the items and the payment alone, "The payment and
    /// the items agree on a total taken as the subtotal"). Without the payment, the line items vouch alone
    /// (`itemsVouch`). Only the total: the merchant and the date must still be trusted on their own.
    static func arithmeticVouch(_ result: ReconciliationResult) -> Vouch? {
        guard result.outcome != .repaired, let total = result.draft.total?.value, total > 0 else { return nil }
        let confirmations = result.totalConfirmations
        guard confirmations.contains(.paymentToTotal) else { return itemsVouch(result) }
        if confirmations.contains(.itemsToTotal) { return .paidAndSummed(.lineItems) }
        if confirmations.contains(.summaryToTotal) { return .paidAndSummed(.summary) }
        if confirmations.contains(.vatTableToTotal) { return .paidAndSummed(.vatTable) }
        // A total read from the subtotal's line, or taken as the subtotal or the items' sum (no total line): two items
        // or more and the payment are still two sums read apart from each other that agree on what was paid (one
        // item's amount is the total's own print).
        let itemsSumToIt = result.findings.contains { finding in
            finding.passed
                && (finding.check == .itemsToTotal
                    || finding.check == .itemsToSubtotal && result.draft.subtotal?.value == total)
        }
        return itemsSumToIt && result.draft.items.count >= 2 ? .paidAndSummed(.lineItems) : nil
    }

    /// The line items alone vouching for a total printed on a line of its own, on a page where every check that ran
    /// passed: two items or more that sum to the total, or to the subtotal that the summary (the tax, discounts and
    /// fees) turns into the total. Each item's amount is read apart from the total, so a misread total would have to
    /// be misread to their exact sum. On the train and dev pages (PP-OCR), 192 of the 193 labeled totals read this way
    /// are right, the one other the unrounded print of a total labeled rounded (docs/extraction-fitting.md, "The line
    /// items alone").
    static func itemsVouch(_ result: ReconciliationResult) -> Vouch? {
        guard result.outcome == .balanced, result.draft.items.count >= 2 else { return nil }
        let confirmations = result.totalConfirmations
        if confirmations.contains(.itemsToTotal) { return .itemsAddUp(throughSubtotal: false) }
        let itemsMakeTheSubtotal = result.findings.contains { $0.passed && $0.check == .itemsToSubtotal }
        return confirmations.contains(.summaryToTotal) && itemsMakeTheSubtotal
            ? .itemsAddUp(throughSubtotal: true) : nil
    }

    /// The known merchant's layout vouching for `field` (`LayoutAgreement`), while the draft still reads that
    /// merchant and the value the agreement was read for (a repaired total or a renamed merchant voids it), and not
    /// for a total that is not positive; for the merchant, its confirmed header with the layout vouching for its total
    /// or date. Items that do not add up do not void it: on the replay they cost most of what
    /// the layout saves (dev SROIE seen-merchant touches 12.2 → 19.5 per 100) for one wrong total it would have held.
    static func layoutVouch(_ field: KeyField, _ result: ReconciliationResult) -> Vouch? {
        let draft = result.draft
        guard let evidence = draft.evidence, let agreement = evidence.layoutAgreement,
            draft.merchant?.value == agreement.merchant
        else { return nil }
        switch field {
        case .merchant:
            // The header alone is not enough: the page must be printed as the merchant prints its receipts.
            guard layoutVouch(.total, result) != nil || layoutVouch(.date, result) != nil else { return nil }
            return agreement.vouch(for: .merchant)
        case .date: return draft.date?.value == evidence.dateValue ? agreement.vouch(for: .date) : nil
        case .total:
            guard let total = draft.total?.value, total == evidence.totalValue, total > 0 else { return nil }
            return agreement.vouch(for: .total)
        }
    }

    private static func isMissing(_ field: KeyField, _ draft: ExpenseDraft) -> Bool {
        switch field {
        case .merchant: draft.merchant == nil
        case .date: draft.date == nil
        case .total: draft.total == nil
        }
    }

    /// Every key field's trust features by name, as `scripts/fit-extraction` reads them
    /// (`pipeline-bench extraction-features`); a field without ranked evidence is left out.
    public static func namedFeatures(_ result: ReconciliationResult) -> [KeyField: [String: Double]] {
        func named<Own>(_ features: CandidateFeatures<TrustFeature<Own>>?) -> [String: Double]? {
            features.map { Dictionary(uniqueKeysWithValues: $0.map { ($0.key.rawValue, $0.value) }) }
        }
        let evidence = result.draft.evidence
        var all: [KeyField: [String: Double]] = [:]
        all[.merchant] = named(features(of: .merchant, evidence?.merchant, result))
        all[.date] = named(features(of: .date, evidence?.date, result))
        all[.total] = named(features(of: .total, evidence?.total, result))
        return all
    }

    /// The features of one key field's trust model, or nil when the field has no ranked evidence (not found, or a
    /// later stage put another value in place of the ranked winner): the ranking's share (and its log-odds), margin
    /// and candidates, the page's confidence, the reconciliation outcome, whether the total is inferred, the
    /// winner's own features, and `confirmedByModel` when the vision LLM read the same value.
    static func features<Own>(of field: KeyField, _ ranked: CandidateEvidence<Own>?, _ result: ReconciliationResult)
        -> CandidateFeatures<TrustFeature<Own>>?
    {
        let draft = result.draft
        guard let evidence = draft.evidence, let ranked, isRankedWinner(field, draft, evidence, result.outcome) else {
            return nil
        }
        var features: CandidateFeatures<TrustFeature<Own>> = [
            .shared(.share): ranked.probability,
            .shared(.logOdds): logOdds(ranked.probability),
            .shared(.margin): ranked.margin / 10,
            .shared(.candidates): Double(min(ranked.candidates, 10)) / 10,
            .shared(.pageConfidence): evidence.pageConfidence,
        ]
        switch result.outcome {
        case .balanced: features[.shared(.balanced)] = 1
        case .repaired: features[.shared(.repaired)] = 1
        case .unbalanced: features[.shared(.unbalanced)] = 1
        case .incomplete: break
        }
        if draft.isTotalInferred { features[.shared(.totalInferred)] = 1 }
        for (feature, value) in ranked.features { features[.own(feature)] = value }
        if evidence.confirmedByModel.contains(field) { features[.shared(.confirmedByModel)] = 1 }
        return features
    }

    /// Whether the draft's value of `field` is still the ranked winner the evidence is about.
    private static func isRankedWinner(
        _ field: KeyField, _ draft: ExpenseDraft, _ evidence: ExtractionEvidence, _ outcome: ReconciliationOutcome
    ) -> Bool {
        switch field {
        case .merchant: draft.merchant != nil && draft.merchant?.value == evidence.merchantValue
        case .date: draft.date != nil && draft.date?.value == evidence.dateValue
        case .total: draft.total != nil && (evidence.totalValue == draft.total?.value || outcome == .repaired)
        }
    }

    /// The log-odds of the winner's softmax share, clipped to ±10 and scaled to ±1: the scale on which a logistic
    /// model weighs a share near 1 (0.99 and 0.999 differ there, as they do in how often the field is right).
    static func logOdds(_ probability: Double) -> Double {
        let share = min(max(probability, 1e-6), 1 - 1e-6)
        return min(10, max(-10, log(share / (1 - share)))) / 10
    }

    /// Below this share of the ranking a rival reading is close enough to be why a field is not trusted; above it the
    /// reading leads clearly and what is missing is evidence for it.
    static let closeShare = 0.9

    /// Why a field's probability is what it is: the feature that pulls it down most, in words, else how the ranking
    /// stood — a close rival, or a clear lead without enough evidence.
    static func explanation<Own>(features: CandidateFeatures<TrustFeature<Own>>, model: TrustModel<Own>) -> String {
        let pulls = features.compactMap { feature, value -> (String, Double)? in
            guard let phrase = phrases[feature.rawValue], let weight = model.weights[feature], weight * value < 0
            else { return nil }
            return (phrase, weight * value)
        }
        if let strongest = pulls.min(by: { $0.1 < $1.1 || $0.1 == $1.1 && $0.0 < $1.0 }) {
            return strongest.0
        }
        let share = features[.shared(.share)] ?? 0
        let wholePercent = (share * 100).rounded()
        let percent = String(format: "%.0f%%", wholePercent)
        // Compared as printed, so a share that reads "90%" is never called close.
        return wholePercent < closeShare * 100
            ? "another reading was close (the chosen one has \(percent) of the ranking)"
            : "the reading leads the others (\(percent) of the ranking), but its evidence falls short of the bar"
    }

    /// What a feature that lowers a field's probability means, in an operator's words, by its name in the fit.
    package static let phrases: [String: String] = [
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
        "own.brandNotInCountry": "read as a brand that does not operate in the receipt's country",
        "own.brandEverydayWord": "read as a brand whose name is an everyday word",
        "own.ambiguousOrder": "day and month could be either way round",
        "own.expiryWord": "read from a line that looks like an expiry date",
        "own.twoDigitYear": "the year is printed with two digits",
        "own.notPositive": "the amount is zero or negative",
        "own.subtotalLine": "read from a subtotal line",
        "unbalanced": "the amounts on the receipt do not add up",
        "totalInferred": "no total line on the receipt: its total is the subtotal or the items' sum",
    ]
}
