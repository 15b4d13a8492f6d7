import Foundation
import PipelineCore

/// One receipt of a replay: where the worker put it and what the person had to do.
package struct ReplayStep: Sendable, Codable, Equatable {
    package var name: String
    package var receiptID: Int64
    package var dataset: String
    /// It landed in review, so a person looked at it.
    package var touched: Bool
    /// The key fields the person corrected (empty: accepted as read).
    package var corrected: [String]
    /// Accepted by the machine with these labeled key fields wrong (a silent error when not empty).
    package var wrongWhenAccepted: [String]
    /// Why it went to review, as the expense's findings say.
    package var findings: [String]
}

/// Replays labeled receipts through the real system, in file-name order, one at a time: `process` ingests one and
/// runs the worker on it until its queue is empty (`pipeline ingest` then `pipeline work --drain`), and, for a
/// receipt that lands in review, a person corrects its labeled key fields with the label's values and accepts it
/// through the review store (`pipeline correct … --accept`). What the person confirmed teaches later receipts as it
/// does in use (`LearnedMerchants`). The database side is the app's (`pipeline-bench replay`).
package struct ReplayRunner<Store: ReviewQueueStore & CorrectionStore> {
    /// Ingests one fixture and runs the worker on it. - Returns: its receipt id.
    package var process: (BenchFixture) async throws -> Int64
    /// Where the replay reads the stored receipt and records the person's corrections.
    package var store: Store
    /// Who the corrections are recorded as.
    package static var person: String { "replay" }

    package init(store: Store, process: @escaping (BenchFixture) async throws -> Int64) {
        self.store = store
        self.process = process
    }

    /// Replays `fixtures` in the order given.
    /// - Parameter progress: called after each receipt with (done, total).
    package func run(_ fixtures: [BenchFixture], progress: (Int, Int) -> Void = { _, _ in }) async throws
        -> [ReplayStep]
    {
        var steps: [ReplayStep] = []
        for (index, fixture) in fixtures.enumerated() {
            let receiptID = try await process(fixture)
            guard let detail = try await store.receipt(receiptID) else {
                throw BenchError(message: "\(fixture.name): receipt \(receiptID) vanished during the replay")
            }
            var step = ReplayStep(
                name: fixture.name, receiptID: receiptID, dataset: fixture.label.source.dataset,
                touched: detail.status == .needsReview,
                corrected: [], wrongWhenAccepted: [], findings: detail.findings.map(\.message))
            let wrong = Self.wrongKeyFields(detail, label: fixture.label)
            if step.touched {
                let corrections = try Self.corrections(for: wrong, label: fixture.label)
                try await store.review(receiptID, corrections: corrections, decision: .accept, by: Self.person)
                step.corrected = wrong.map(\.rawValue)
            } else {
                step.wrongWhenAccepted = wrong.map(\.rawValue)
            }
            steps.append(step)
            progress(index + 1, fixtures.count)
        }
        return steps
    }

    /// The labeled key fields whose stored value the label contradicts (fuzzy for the merchant, as the bench
    /// scores it).
    package static func wrongKeyFields(_ detail: ReceiptDetail, label: FixtureLabel) -> [KeyField] {
        KeyField.allCases.filter { field in
            guard let expected = labeled(field, label) else { return false }
            let got = detail.reading(field.correctable)?.value ?? ""
            return !ReceiptScorer.matches(scoredField(field), expected: expected, got: got)
        }
    }

    /// What a person types for each wrong field: the label's value, checked by the one rule for the field.
    static func corrections(for fields: [KeyField], label: FixtureLabel) throws -> [CorrectableField: String?] {
        var corrections: [CorrectableField: String?] = [:]
        for field in fields {
            guard let value = labeled(field, label) else { continue }
            corrections[field.correctable] = .some(try FieldValue.normalize(value, for: field.correctable))
        }
        return corrections
    }

    /// The label's value of a key field, nil when the label does not score it.
    static func labeled(_ field: KeyField, _ label: FixtureLabel) -> String? {
        guard label.source.labeledFields.contains(field.rawValue) else { return nil }
        switch field {
        case .merchant: return label.merchant
        case .date: return label.date
        case .total: return label.total
        }
    }

    static func scoredField(_ field: KeyField) -> ScoredField {
        switch field {
        case .merchant: .merchantFuzzy
        case .date: .date
        case .total: .total
        }
    }
}

/// The replay's figures for one group of receipts (a dataset, or all), over the whole run and each half of it.
package struct ReplayFigures: Sendable, Codable, Equatable {
    package var group: String
    package var receipts: Int
    package var touchesPer100: Double
    package var silentErrorsPer100: Double
    package var firstHalf: Half
    package var secondHalf: Half

    package struct Half: Sendable, Codable, Equatable {
        package var receipts: Int
        package var touchesPer100: Double
        package var silentErrorsPer100: Double
    }

    /// The figures of `steps` (in replay order): the halves split that order in two.
    package init(group: String, steps: [ReplayStep]) {
        func half(_ part: ArraySlice<ReplayStep>) -> Half {
            let count = max(1, part.count)
            return Half(
                receipts: part.count, touchesPer100: 100 * Double(part.filter(\.touched).count) / Double(count),
                silentErrorsPer100: 100 * Double(part.filter { !$0.wrongWhenAccepted.isEmpty }.count) / Double(count))
        }
        let whole = half(steps[...])
        self.group = group
        self.receipts = steps.count
        self.touchesPer100 = whole.touchesPer100
        self.silentErrorsPer100 = whole.silentErrorsPer100
        self.firstHalf = half(steps.prefix(steps.count / 2))
        self.secondHalf = half(steps.dropFirst(steps.count / 2))
    }

    /// Per dataset (in name order) and `all`.
    package static func table(_ steps: [ReplayStep]) -> [ReplayFigures] {
        let datasets = Set(steps.map(\.dataset)).sorted()
        return datasets.map { dataset in ReplayFigures(group: dataset, steps: steps.filter { $0.dataset == dataset }) }
            + [ReplayFigures(group: "all", steps: steps)]
    }
}
