import Foundation
import PipelineCore

/// Accuracy of one field: right answers over scored receipts.
public struct FieldAccuracy: Sendable, Equatable, Codable {
    public var correct: Int
    public var scored: Int

    public init(correct: Int, scored: Int) {
        self.correct = correct
        self.scored = scored
    }
    public var accuracy: Double { scored == 0 ? 0 : Double(correct) / Double(scored) }
}

/// The scores of one dataset (or of all receipts together).
public struct DatasetSummary: Sendable, Equatable, Codable {
    public var dataset: String
    public var receipts: Int
    public var fields: [ScoredField: FieldAccuracy]
    public var items: ItemCounts
    public var itemReceipts: Int
    /// Receipts marked `balanced` or `repaired`.
    public var autoAccepted: Int
    /// Auto-accepted receipts with a labeled total, and how many of those totals were right.
    public var autoAcceptedWithTotal: Int
    public var autoAcceptedTotalCorrect: Int
    /// Auto-accepted receipts with a labeled key field (merchant, fuzzily; date; total) wrong: errors nobody sees.
    public var silentErrors: Int
    /// Expense categories right over receipts with a category label.
    public var category: FieldAccuracy
    /// Receipts categorized `Other` over receipts categorized.
    public var categoryOther: FieldAccuracy
    /// Touches and silent errors per 100 at each fitted trust budget, lowest budget first (`BudgetStatus`).
    public var tradeOff: [TradeOffPoint]

    /// Share of receipts auto-accepted.
    public var autoAcceptedShare: Double { receipts == 0 ? 0 : Double(autoAccepted) / Double(receipts) }
    /// Receipts a person must look at (not auto-accepted), per 100 receipts.
    public var touchesPer100: Double { receipts == 0 ? 0 : 100 * Double(receipts - autoAccepted) / Double(receipts) }
    /// Silent errors per 100 receipts.
    public var silentErrorsPer100: Double { receipts == 0 ? 0 : 100 * Double(silentErrors) / Double(receipts) }
    /// Precision of the total among auto-accepted receipts (the trust figure).
    public var trust: Double {
        autoAcceptedWithTotal == 0 ? 1 : Double(autoAcceptedTotalCorrect) / Double(autoAcceptedWithTotal)
    }

    init(dataset: String, scores: [ReceiptScore]) {
        self.dataset = dataset
        self.receipts = scores.count
        var fields: [ScoredField: FieldAccuracy] = [:]
        for comparison in scores.flatMap(\.fields) {
            var entry = fields[comparison.field] ?? FieldAccuracy(correct: 0, scored: 0)
            entry.scored += 1
            if comparison.isCorrect { entry.correct += 1 }
            fields[comparison.field] = entry
        }
        self.fields = fields
        let itemScores = scores.compactMap(\.items)
        self.items = itemScores.reduce(ItemCounts(), +)
        self.itemReceipts = itemScores.count
        let accepted = scores.filter { $0.status == .accepted }
        self.autoAccepted = accepted.count
        let withTotal = accepted.compactMap { $0.comparison(.total) }
        self.autoAcceptedWithTotal = withTotal.count
        self.autoAcceptedTotalCorrect = withTotal.filter(\.isCorrect).count
        self.silentErrors = accepted.filter(\.hasWrongKeyField).count
        let budgets = Set(scores.flatMap { $0.statusByBudget.map(\.maxSilentPer100) }).sorted()
        let receipts = scores.count
        self.tradeOff = budgets.map { budget in
            let accepted = scores.filter { score in
                score.statusByBudget.first { $0.maxSilentPer100 == budget }?.status == .accepted
            }
            return TradeOffPoint(
                maxSilentPer100: budget,
                touchesPer100: 100 * Double(receipts - accepted.count) / Double(max(1, receipts)),
                silentPer100: 100 * Double(accepted.filter(\.hasWrongKeyField).count) / Double(max(1, receipts)))
        }
        let categories = scores.compactMap(\.category)
        let labeled = categories.compactMap(\.isCorrect)
        self.category = FieldAccuracy(correct: labeled.filter { $0 }.count, scored: labeled.count)
        self.categoryOther = FieldAccuracy(
            correct: categories.filter { $0.got == .other }.count, scored: categories.count)
    }
}

/// What one trust budget costs on a set of receipts.
public struct TradeOffPoint: Sendable, Equatable, Codable {
    public var maxSilentPer100: Double
    public var touchesPer100: Double
    public var silentPer100: Double

    public init(maxSilentPer100: Double, touchesPer100: Double, silentPer100: Double) {
        self.maxSilentPer100 = maxSilentPer100
        self.touchesPer100 = touchesPer100
        self.silentPer100 = silentPer100
    }
}

/// Latency percentiles in seconds.
public struct LatencySummary: Sendable, Equatable, Codable {
    public var p50: Double
    public var p95: Double
    public var p99: Double
    public var max: Double

    init(_ values: [Double]) {
        let sorted = values.sorted()
        func percentile(_ share: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let rank = Int((share * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank))]
        }
        self.p50 = percentile(0.5)
        self.p95 = percentile(0.95)
        self.p99 = percentile(0.99)
        self.max = sorted.last ?? 0
    }
}

/// A whole bench run: per-dataset and overall scores, latency, and every receipt's detail.
public struct BenchSummary: Sendable, Equatable, Codable {
    public var datasets: [DatasetSummary]
    public var overall: DatasetSummary
    public var latency: LatencySummary
    public var receipts: [ReceiptScore]
    /// The configured trust budget (`acceptance.maxSilentPer100`), marked on the trade-off.
    public var maxSilentPer100: Double

    public init(receipts: [ReceiptScore], maxSilentPer100: Double = AutoAcceptance.defaultMaxSilentPer100) {
        self.maxSilentPer100 = maxSilentPer100
        let names = Set(receipts.map(\.dataset)).sorted()
        self.datasets = names.map { name in
            DatasetSummary(dataset: name, scores: receipts.filter { $0.dataset == name })
        }
        self.overall = DatasetSummary(dataset: "all", scores: receipts)
        self.latency = LatencySummary(receipts.map(\.latency))
        self.receipts = receipts
    }

    /// The budget of the fitted point the configured budget takes (the largest not above it, as
    /// `TrustModels.point(forBudget:)`); nil without a trade-off.
    public var configuredPoint: Double? {
        let budgets = overall.tradeOff.map(\.maxSilentPer100)
        return budgets.last { $0 <= maxSilentPer100 + 1e-9 } ?? budgets.first
    }

    /// Targets missed, in words (`WildReceipt total accuracy 0.61 is below the target 0.65`); empty when all are met.
    public func missedTargets(_ targets: BenchTargets) -> [String] {
        var missed: [String] = []
        let floors: [(ScoredField, Double, String)] = [
            (.total, targets.totalAccuracy, "targets.totalAccuracy"),
            (.date, targets.dateAccuracy, "targets.dateAccuracy"),
            (.merchantFuzzy, targets.merchantAccuracy, "targets.merchantAccuracy"),
        ]
        for dataset in datasets {
            for (field, floor, key) in floors {
                guard let accuracy = dataset.fields[field], accuracy.scored > 0, accuracy.accuracy < floor else {
                    continue
                }
                missed.append(
                    "\(dataset.dataset) \(field.rawValue) accuracy \(String(format: "%.2f", accuracy.accuracy)) is below \(key) \(String(format: "%.2f", floor))"
                )
            }
        }
        let p95Limit = targets.benchLatencyP95.seconds
        if latency.p95 > p95Limit {
            missed.append(
                String(format: "latency p95 %.3f s is above targets.benchLatencyP95 %.3f s", latency.p95, p95Limit))
        }
        return missed
    }
}

/// The latency target and the accuracy floors `pipeline bench` gates on (the `targets.*` settings).
public struct BenchTargets: Sendable, Equatable {
    public var latency: Duration = .seconds(3)
    public var benchLatencyP95: Duration = .milliseconds(2500)
    public var totalAccuracy = 0.65
    public var dateAccuracy = 0.55
    public var merchantAccuracy = 0.65

    public init() {}
}
