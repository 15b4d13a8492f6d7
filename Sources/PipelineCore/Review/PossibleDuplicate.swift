import Foundation

/// The commit's duplicate rule: whether an earlier expense may be the same receipt as the one being committed, so
/// that this one waits for a person (`ReviewReason.possibleDuplicate`; both are kept). The real store and the fake
/// both decide with it (`docs/review.md`, "Duplicates").
public enum PossibleDuplicate {
    /// An earlier expense as it stands (a person's values included) and its page.
    public struct Earlier: Sendable, Equatable {
        public var id: Int64
        public var merchant: String?
        /// `YYYY-MM-DD`, as stored.
        public var date: String?
        public var total: Decimal?
        public var page: PageFingerprint?

        public init(id: Int64, merchant: String?, date: String?, total: Decimal?, page: PageFingerprint?) {
            self.id = id
            self.merchant = merchant
            self.date = date
            self.total = total
            self.page = page
        }
    }

    /// The earliest (lowest id) of `earlier` that may be the same receipt as `draft`, read from `page`: the same
    /// merchant (the same letters and digits: `SANYU STATIONERYSHOP` is `SANYUSTATIONERYSHOP`), date and total — for
    /// a draft whose date was not read, the same merchant and total whatever the date (a second photo that lost the
    /// date; the draft waits for its date anyway); or a similar page (`PageFingerprint.isSimilarPage`) whose total
    /// or date is the same and neither differs (two receipts of one shop share a layout, not a day and an amount).
    /// Nil when none is.
    public static func first(of draft: ExpenseDraft, page: PageFingerprint?, among earlier: [Earlier]) -> Int64? {
        earlier.filter { matches(draft, page: page, $0) }.map(\.id).min()
    }

    static func matches(_ draft: ExpenseDraft, page: PageFingerprint?, _ other: Earlier) -> Bool {
        let sameTotal = same(draft.total?.value, other.total)
        let sameDate = same(draft.date?.value.description, other.date)
        if sameTotal == true, sameDate == true || draft.date == nil, let merchant = draft.merchant?.value,
            let otherMerchant = other.merchant
        {
            let letters = TextSimilarity.normalized(merchant)
            if !letters.isEmpty, letters == TextSimilarity.normalized(otherMerchant) { return true }
        }
        guard let page, let otherPage = other.page, page.isSimilarPage(to: otherPage) else { return false }
        return sameTotal != false && sameDate != false && (sameTotal == true || sameDate == true)
    }

    /// Whether two read values are the same; nil when either was not read.
    private static func same<Value: Equatable>(_ value: Value?, _ other: Value?) -> Bool? {
        guard let value, let other else { return nil }
        return value == other
    }
}
