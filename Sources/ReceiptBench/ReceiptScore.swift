import Foundation
import PipelineCore

/// A scored field (docs/behaviour.md, "Fixture labels and scoring").
public enum ScoredField: String, Sendable, Codable, CodingKeyRepresentable, CaseIterable, Comparable {
    case merchantStrict = "merchant (strict)"
    case merchantFuzzy = "merchant (fuzzy)"
    case date, total, currency, subtotal, tax, tip
    case allKeyFields = "merchant + date + total"

    public static func < (lhs: ScoredField, rhs: ScoredField) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// One field of one receipt: what the label says, what the pipeline said, and whether they agree.
public struct FieldComparison: Sendable, Equatable, Codable {
    public var field: ScoredField
    public var expected: String?
    public var got: String?
    public var isCorrect: Bool
}

/// Line-item matching counts of one receipt.
public struct ItemCounts: Sendable, Equatable, Codable {
    public var matched: Int
    public var predicted: Int
    public var expected: Int

    public init(matched: Int = 0, predicted: Int = 0, expected: Int = 0) {
        self.matched = matched
        self.predicted = predicted
        self.expected = expected
    }

    static func + (lhs: ItemCounts, rhs: ItemCounts) -> ItemCounts {
        ItemCounts(
            matched: lhs.matched + rhs.matched, predicted: lhs.predicted + rhs.predicted,
            expected: lhs.expected + rhs.expected)
    }

    public var precision: Double { predicted == 0 ? 0 : Double(matched) / Double(predicted) }
    public var recall: Double { expected == 0 ? 0 : Double(matched) / Double(expected) }
    public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
}

/// Everything the bench knows about one receipt.
public struct ReceiptScore: Sendable, Equatable, Codable {
    public var name: String
    public var dataset: String
    public var fields: [FieldComparison]
    /// Nil when items are not labeled for this receipt.
    public var items: ItemCounts?
    public var outcome: ReconciliationOutcome
    public var status: ExpenseStatus
    public var findings: [String]
    /// Image → reconciled draft, in seconds.
    public var latency: Double
    public var ocrText: String
    /// The predicted expense category and, when the fixture has a category label, the labeled one.
    public var category: CategoryComparison?
    /// What the review decision would be at each fitted trust budget (`TrustBudgetPoint`), for the bench's
    /// trade-off; empty when the receipt was scored without its record.
    public var statusByBudget: [BudgetStatus] = []

    /// Whether a key field the label scores (merchant, fuzzily; date; total) is wrong.
    public var hasWrongKeyField: Bool {
        [ScoredField.merchantFuzzy, .date, .total].contains { comparison($0)?.isCorrect == false }
    }

    /// How many scored fields were wrong (the "worst misses" order).
    public var missCount: Int { fields.filter { !$0.isCorrect && $0.field != .allKeyFields }.count }

    public func comparison(_ field: ScoredField) -> FieldComparison? { fields.first { $0.field == field } }
}

/// A receipt's review status at one trust budget (`acceptance.maxSilentPer100`).
public struct BudgetStatus: Sendable, Equatable, Codable {
    public var maxSilentPer100: Double
    public var status: ExpenseStatus

    public init(maxSilentPer100: Double, status: ExpenseStatus) {
        self.maxSilentPer100 = maxSilentPer100
        self.status = status
    }
}

/// A receipt's predicted expense category beside its label (`bench/category-labels.tsv`).
public struct CategoryComparison: Sendable, Equatable, Codable {
    /// Nil when the fixture has no category label.
    public var expected: ExpenseCategory?
    public var got: ExpenseCategory
    /// What decided `got`.
    public var source: CategorySource

    public init(expected: ExpenseCategory?, got: ExpenseCategory, source: CategorySource) {
        self.expected = expected
        self.got = got
        self.source = source
    }

    public var isCorrect: Bool? { expected.map { $0 == got } }
}

/// Compares a reconciled draft with a fixture label by the rules of docs/behaviour.md, "Fixture labels and scoring".
public enum ReceiptScorer {
    /// Merchant names at least this similar count as right in the fuzzy score.
    public static let merchantThreshold = 0.8
    /// Item names at least this similar (with equal total price) count as the same item.
    public static let itemNameThreshold = 0.6

    public static func score(
        name: String, label: FixtureLabel, result: ReconciliationResult, latency: Double, ocrText: String
    ) -> ReceiptScore {
        let draft = result.draft
        let labeled = Set(label.source.labeledFields)
        var fields: [FieldComparison] = []
        func add(
            _ field: ScoredField, labelKey: String, expected: String?, got: String?,
            _ isCorrect: (String, String?) -> Bool
        ) {
            guard labeled.contains(labelKey), let expected else { return }
            fields.append(
                FieldComparison(field: field, expected: expected, got: got, isCorrect: isCorrect(expected, got)))
        }
        let merchant = draft.merchant?.value
        let money = { (field: ExtractedField<Decimal>?) in field.map { moneyText($0.value) } }
        let predictions: [(ScoredField, String, String?, String?)] = [
            (.merchantStrict, "merchant", label.merchant, merchant),
            (.merchantFuzzy, "merchant", label.merchant, merchant),
            (.date, "date", label.date, draft.date.map { "\($0.value)" }),
            (.currency, "currency", label.currency, draft.currency?.value),
            (.total, "total", label.total, money(draft.total)),
            (.subtotal, "subtotal", label.subtotal, money(draft.subtotal)), (.tax, "tax", label.tax, money(draft.tax)),
            (.tip, "tip", label.tip, money(draft.tip)),
        ]
        for (field, key, expected, got) in predictions {
            add(field, labelKey: key, expected: expected, got: got) { matches(field, expected: $0, got: $1) }
        }
        let keyFields = fields.filter { [.merchantFuzzy, .date, .total].contains($0.field) }
        if !keyFields.isEmpty {
            fields.append(
                FieldComparison(
                    field: .allKeyFields, expected: nil, got: nil, isCorrect: keyFields.allSatisfy(\.isCorrect)))
        }
        let items = labeled.contains("items") ? matchItems(expected: label.items, predicted: draft.items) : nil
        return ReceiptScore(
            name: name, dataset: label.source.dataset, fields: fields, items: items, outcome: result.outcome,
            status: ReviewPolicy.decide(result).status, findings: result.findings.map(\.message), latency: latency,
            ocrText: ocrText)
    }

    /// Scores what the worker commits for a receipt: the status and findings are `ReviewPolicy`'s for the record
    /// (no duplicate lookup), followed by the checks that passed.
    public static func score(name: String, label: FixtureLabel, record: ExpenseRecord, latency: Double) -> ReceiptScore
    {
        var score = score(name: name, label: label, result: record.result, latency: latency, ocrText: record.ocrText)
        let review = ReviewPolicy.decide(record)
        score.status = review.status
        score.findings =
            review.findings.map(\.message) + record.result.findings.filter { $0.finding == nil }.map(\.message)
        let reader = record.result.draft.evidence?.reader ?? .ppocr
        score.statusByBudget = ExtractionModel.fitted.trust[reader].budgets.map { point in
            var atBudget = record
            atBudget.maxSilentPer100 = point.maxSilentPer100
            return BudgetStatus(
                maxSilentPer100: point.maxSilentPer100, status: ReviewPolicy.decide(atBudget).status)
        }
        return score
    }

    /// Whether a predicted value counts as right for `field` (docs/behaviour.md): money to the cent, dates exactly, merchant
    /// names normalized (strict) or at least `merchantThreshold` similar (fuzzy).
    public static func matches(_ field: ScoredField, expected: String, got: String?) -> Bool {
        switch field {
        case .merchantStrict: got.map(TextSimilarity.normalized) == TextSimilarity.normalized(expected)
        case .merchantFuzzy: got.map { sameMerchant(expected: expected, got: $0) } ?? false
        case .total, .subtotal, .tax, .tip: sameMoney(expected, got)
        case .date, .currency, .allKeyFields: expected == got
        }
    }

    /// Whether `got` names the labeled merchant: at least `merchantThreshold` similar, or the label read whole
    /// within it (`OWN BY: CHEF LEE SDN BHD`), or its leading part (`Panera Bread` for a label that joins the
    /// printed name regions, `PaneraBread Cafe0994`) of at least `merchantLeadingPart` letters and digits or half
    /// the label. Compared without case, spaces and punctuation.
    static func sameMerchant(expected: String, got: String) -> Bool {
        if TextSimilarity.similarity(got, expected) >= merchantThreshold { return true }
        let label = TextSimilarity.normalized(expected)
        let reading = TextSimilarity.normalized(got)
        guard min(label.count, reading.count) >= 4 else { return false }
        return reading.contains(label)
            || label.hasPrefix(reading) && (reading.count >= merchantLeadingPart || 2 * reading.count >= label.count)
    }

    /// Whether two labels name one merchant, either way round: as alike as the bench's fuzzy score asks, or one is
    /// the other's leading part of at least `merchantLeadingPart` letters and digits (`PaneraBread`,
    /// `PaneraBread Cafe0994`), or lies within it and makes up at least half of it (`PandaExpress`, `Store#0208
    /// PandaExpress`). Not the scorer's rule that a reading holding the label whole names it: a label that is one
    /// everyday word (`RESTAURANT`, `BURGER`) lies within many other merchants' labels.
    package static func sameMerchantLabels(_ first: String, _ second: String) -> Bool {
        guard TextSimilarity.similarity(first, second) < merchantThreshold else { return true }
        let names = [TextSimilarity.normalized(first), TextSimilarity.normalized(second)].sorted { $0.count < $1.count }
        let (shorter, longer) = (names[0], names[1])
        guard shorter.count >= 4 else { return false }
        return longer.hasPrefix(shorter) && shorter.count >= merchantLeadingPart
            || longer.contains(shorter) && 2 * shorter.count >= longer.count
    }

    /// The fewest letters and digits a reading that is the label's leading part needs to name the merchant.
    public static let merchantLeadingPart = 6

    /// Money equal to the cent.
    static func sameMoney(_ expected: String, _ got: String?) -> Bool {
        guard let got, let left = Decimal(string: expected, locale: Locale(identifier: "en_US_POSIX")),
            let right = Decimal(string: got, locale: Locale(identifier: "en_US_POSIX"))
        else { return false }
        return cents(left) == cents(right)
    }

    static func cents(_ value: Decimal) -> Decimal {
        var source = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &source, 2, .plain)
        return rounded
    }

    /// Greedy one-to-one matching: equal total price to the cent, then the most similar name above the threshold.
    static func matchItems(expected: [FixtureLabel.Item], predicted: [DraftLineItem]) -> ItemCounts {
        var available = Array(predicted.indices)
        var matched = 0
        for item in expected {
            guard let price = Decimal(string: item.totalPrice, locale: Locale(identifier: "en_US_POSIX")) else {
                continue
            }
            let candidates = available.filter { cents(predicted[$0].totalPrice) == cents(price) }
                .map { ($0, TextSimilarity.similarity(predicted[$0].name, item.name)) }
                .filter { $0.1 >= itemNameThreshold }
            if let best = candidates.max(by: { $0.1 < $1.1 }) {
                matched += 1
                available.removeAll { $0 == best.0 }
            }
        }
        return ItemCounts(matched: matched, predicted: predicted.count, expected: expected.count)
    }
}
