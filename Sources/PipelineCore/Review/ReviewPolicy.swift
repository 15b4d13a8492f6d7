import Foundation

/// What `ReviewPolicy` decided for one expense: its status, why it waits (if it does), and the findings to store.
public struct ReviewAssessment: Sendable, Equatable {
    /// `needs_review` exactly when `reasons` is not empty.
    public var status: ExpenseStatus
    /// Why it waits for a person, in `ReviewReason` order; empty for an accepted expense.
    public var reasons: [ReviewReason]
    /// The record's findings and notes, then one finding per key field the acceptance decision does not trust.
    public var findings: [Finding]
    /// The acceptance decision it called.
    public var acceptance: AcceptanceDecision
}

/// The one place that decides whether an expense is accepted or waits for a person, and why.
///
/// An expense is accepted only when the acceptance decision (`AutoAcceptance`) trusts every key field, no finding
/// calls for a person, and no earlier expense looks like the same receipt; otherwise it is `needs_review` with one
/// reason per cause. Whether a failed arithmetic check (`unbalanced`, `incomplete`) calls for a person is the trust
/// budget's to say (`AcceptanceDecision.holds`): one that does not is kept as a finding on the accepted expense, an
/// optional item check. A key field not trusted is its own reason (`merchant_not_sure`, …) unless a finding that holds
/// the expense already concerns that field (a total that does not add up is not also "not sure"). The decision reads finding codes, never their words, and the commit stores its status and
/// reasons as they are (`ExpenseStore.commit`): nothing downstream derives them again.
public enum ReviewPolicy {
    /// Decides for one record.
    /// - Parameter possibleDuplicateOf: the earlier expense the commit found that looks like the same receipt.
    /// - Parameter acceptance: the acceptance decision (nil: the fitted one at the record's trust budget; tests give
    ///   another model).
    public static func decide(
        _ record: ExpenseRecord, possibleDuplicateOf: Int64? = nil,
        acceptance: ((ReconciliationResult) -> AcceptanceDecision)? = nil
    ) -> ReviewAssessment {
        decide(
            record.result, otherFindings: record.extraFindings + record.notes, possibleDuplicateOf: possibleDuplicateOf,
            acceptance: acceptance ?? { AutoAcceptance.decide($0, maxSilentPer100: record.maxSilentPer100) })
    }

    /// Decides for a reconciled reading and the findings beyond its checks.
    public static func decide(
        _ result: ReconciliationResult, otherFindings: [Finding] = [], possibleDuplicateOf: Int64? = nil,
        acceptance decideAcceptance: (ReconciliationResult) -> AcceptanceDecision = { AutoAcceptance.decide($0) }
    ) -> ReviewAssessment {
        let acceptance = decideAcceptance(result)
        let trust = acceptance.untrusted.map { untrusted in
            Finding(
                .notTrusted, field: untrusted.field.field,
                untrusted.isMissing
                    ? untrusted.why : "\(untrusted.field.rawValue) not sure (\(untrusted.odds)): \(untrusted.why)")
        }
        let read = result.recordedFindings + otherFindings
        let holding = read.filter { finding in
            reason(for: finding).map {
                !TrustModels.reconciliationHolds.contains($0) || acceptance.holds.contains($0)
            } ?? false
        }
        var reasons = Set(holding.compactMap(reason(for:)))
        // A field another reason already calls into question (a total that does not add up) needs no second one.
        let doubted = Set(holding.compactMap(\.field))
        reasons.formUnion(trust.filter { $0.field.map { !doubted.contains($0) } ?? true }.compactMap(reason(for:)))
        if possibleDuplicateOf != nil { reasons.insert(.possibleDuplicate) }
        // A field the model alone would not trust, trusted by what the page shows (a known brand, the name printed
        // twice, the arithmetic), says so (a layout's vouches are noted by extraction).
        let pageNotes = acceptance.fields.compactMap { field -> Finding? in
            guard field.probability < field.threshold, let vouch = field.vouchedBy else { return nil }
            let odds = "\(field.field.rawValue) \(field.odds)"
            switch vouch {
            case .knownBrand:
                return Finding(
                    .knownBrand, field: field.field.field,
                    "\(odds): trusted as \(vouch)" + (result.draft.brand.map { " (\($0.value))" } ?? ""))
            case .namedTwice:
                return Finding(.namedTwice, field: field.field.field, "\(odds): trusted, \(vouch)")
            case .paidAndSummed:
                return Finding(.totalConfirmedTwice, field: field.field.field, "\(odds): trusted, \(vouch)")
            case .itemsAddUp:
                return Finding(.totalConfirmedByItems, field: field.field.field, "\(odds): trusted, \(vouch)")
            case .confirmedHeader, .knownTotalLine, .knownDateForm: return nil
            }
        }
        let findings = read + trust + pageNotes
        let ordered = ReviewReason.allCases.filter(reasons.contains)
        return ReviewAssessment(
            status: ordered.isEmpty ? .accepted : .needsReview, reasons: ordered, findings: findings,
            acceptance: acceptance)
    }

    /// The reason a finding gives to hold its expense for a person; nil for a note, which is recorded only.
    public static func reason(for finding: Finding) -> ReviewReason? {
        switch finding.code {
        case .itemsToSubtotal, .itemsToTotal, .summaryToTotal, .quantityTimesUnitPrice, .paymentToTotal,
            .vatTableToTotal:
            .unbalanced
        case .missingTotal, .totalUnconfirmed: .incomplete
        case .tooManyPages: .tooManyPages
        case .pageTotalDiffers: .pageTotalDiffers
        case .llmFieldRefused, .llmReplyTruncated, .llmReplyUnusable, .llmValueNotPrinted: .llmDisagreement
        case .llmNotUsed: .llmFailed
        case .notTrusted: finding.field.flatMap { KeyField(rawValue: $0.rawValue) }.map(ReviewReason.notSure)
        case .datesDisagree, .dateRepaired: .notSure(.date)
        case .digitRepaired, .llmMerge, .learnedMerchant, .knownLayout, .knownBrand, .namedTwice, .totalConfirmedTwice,
            .totalConfirmedByItems,
            .readingNote,
            .ambiguousDate,
            .categoryNotSure, .unstorableText, .pageTurned,
            .untyped:
            nil
        }
    }
}
