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
    /// Why it went to review, as the expense's findings say (or why its job went dead).
    package var findings: [String]
    /// An earlier receipt of the run that was accepted (by the machine or a person; not one whose job went dead) has
    /// the same labeled merchant, fuzzily as the bench scores it.
    package var merchantSeenBefore = false
    /// An earlier receipt of the run has the same labeled merchant (fuzzily), date and total (`sameReceipt`): the same
    /// receipt scanned or photographed again, which a person must see (the commit flags it as a possible duplicate;
    /// ingest skips the same file).
    package var repeatsEarlierReceipt = false
    /// It was caught as a repeat: the commit flagged it as a possible duplicate, or ingest found the same file and
    /// stored nothing new.
    package var caughtAsRepeat = false
    /// Its job went dead (a damaged image): a person must look at it, so it counts as a touch.
    package var dead = false
    /// Held when the batch was read, then accepted by the machine before a person got to it: a confirmation of
    /// another receipt let it read this one again (`ReplayRunner.Reviewing.afterBatch`).
    package var decidedAgain = false
    /// Why it waited for a person (`ReviewReason` raw values; empty for an accepted receipt).
    package var reasons: [String] = []
    /// How its reconciliation came out (`balanced`, `unbalanced`, …); nil for a dead job.
    package var outcome: String?
    /// Each key field's probability the acceptance decision weighed, by field name (a field not read is absent).
    package var trust: [String: Double] = [:]
}

/// What working one fixture left: its receipt, and why its job went dead when it did.
package struct ReplayProcessed: Sendable, Equatable {
    package var receiptID: Int64
    /// The failure that ended its job; nil when the worker finished it.
    package var deadReason: String?

    package init(receiptID: Int64, deadReason: String? = nil) {
        self.receiptID = receiptID
        self.deadReason = deadReason
    }
}

/// Replays labeled receipts through the real system, in file-name order, one at a time: `process` ingests one and
/// runs the worker on it until its queue is empty (`pipeline ingest` then `pipeline work --drain`), and a receipt
/// that lands in review is settled as `reviewing` says: a person corrects its labeled key fields with the label's
/// values and accepts it through the review store (`pipeline correct … --accept`). What the person confirmed
/// teaches later receipts as it does in use (`LearnedMerchants`). The database side is the app's (`pipeline-bench
/// replay`).
package struct ReplayRunner<Store: ReviewQueueStore & CorrectionStore> {
    /// When a person settles the receipts held for review.
    package enum Reviewing {
        /// As each arrives, before the next is read: someone at the review page as receipts come in.
        case eachReceipt
        /// After the whole batch was read (`pipeline ingest` of a folder, `pipeline work --drain`): a person works
        /// the review queue in the batch's order, and after each receipt they settle `drain` runs the worker on
        /// what that queued (the held receipts the confirmation lets the machine decide again).
        case afterBatch(drain: () async throws -> Void)
        /// Nobody: a held receipt stays held and teaches nothing, as an unattended batch.
        case nobody
    }

    /// Ingests one fixture and runs the worker on it. - Returns: its receipt id, and why its job went dead.
    package var process: (BenchFixture) async throws -> ReplayProcessed
    /// Where the replay reads the stored receipt and records the person's corrections.
    package var store: Store
    package var reviewing: Reviewing
    /// Who the corrections are recorded as.
    package static var person: String { "replay" }

    package init(
        store: Store, reviewing: Reviewing = .eachReceipt,
        process: @escaping (BenchFixture) async throws -> ReplayProcessed
    ) {
        self.store = store
        self.reviewing = reviewing
        self.process = process
    }

    /// Whether a person settles the held receipts at some point of the run.
    private var settlesHeld: Bool {
        switch reviewing {
        case .eachReceipt, .afterBatch: true
        case .nobody: false
        }
    }

    /// Replays `fixtures` in the order given.
    /// - Parameter progress: called after each receipt with (done, total).
    package func run(_ fixtures: [BenchFixture], progress: (Int, Int) -> Void = { _, _ in }) async throws
        -> [ReplayStep]
    {
        var steps: [ReplayStep] = []
        var merchants: [String] = []
        var earlier: [FixtureLabel] = []
        for (index, fixture) in fixtures.enumerated() {
            defer { progress(index + 1, fixtures.count) }
            let processed = try await process(fixture)
            let receiptID = processed.receiptID
            let merchant = Self.labeled(.merchant, fixture.label)
            let seenBefore = merchant.map { name in merchants.contains { ReceiptScorer.sameMerchantLabels($0, name) } }
            let repeats = earlier.contains { Self.sameReceipt($0, fixture.label) }
            let sameFile = steps.contains { $0.receiptID == receiptID }
            earlier.append(fixture.label)
            if let deadReason = processed.deadReason {
                // Nobody can accept a receipt without an expense: a person looks at it, and the run goes on.
                steps.append(
                    ReplayStep(
                        name: fixture.name, receiptID: receiptID, dataset: fixture.label.source.dataset,
                        touched: true, corrected: [], wrongWhenAccepted: [], findings: [deadReason],
                        merchantSeenBefore: seenBefore ?? false, repeatsEarlierReceipt: repeats, dead: true))
                continue
            }
            guard let detail = try await store.receipt(receiptID) else {
                throw BenchError(message: "\(fixture.name): receipt \(receiptID) vanished during the replay")
            }
            var step = ReplayStep(
                name: fixture.name, receiptID: receiptID, dataset: fixture.label.source.dataset,
                touched: detail.status == .needsReview,
                corrected: [], wrongWhenAccepted: [], findings: detail.findings.map(\.message),
                merchantSeenBefore: seenBefore ?? false, repeatsEarlierReceipt: repeats)
            // Accepted, by the machine or a person: its merchant is confirmed for the receipts after it.
            if let merchant, settlesHeld || !step.touched { merchants.append(merchant) }
            step.reasons = detail.reasons.map(\.rawValue)
            if sameFile {
                // Ingest stored nothing: the receipt read is the earlier one, which a person has already settled.
                step.touched = false
                step.caughtAsRepeat = true
                step.findings = ["ingest: the same file as receipt \(receiptID)"]
                steps.append(step)
                continue
            }
            step.caughtAsRepeat = detail.reasons.contains(.possibleDuplicate)
            step.outcome = detail.validationOutcome.rawValue
            for field in KeyField.allCases {
                step.trust[field.rawValue] = detail.reading(field.correctable)?.confidence
            }
            let wrong = Self.wrongKeyFields(detail, label: fixture.label)
            if step.touched {
                guard case .eachReceipt = reviewing else {
                    steps.append(step)
                    continue
                }
                try await settle(receiptID, wrong: wrong, label: fixture.label)
                step.corrected = wrong.map(\.rawValue)
            } else {
                step.wrongWhenAccepted = wrong.map(\.rawValue)
            }
            steps.append(step)
        }
        if case .afterBatch(let drain) = reviewing {
            try await settleAfterBatch(&steps, labels: fixtures.map(\.label), drain: drain)
        }
        return steps
    }

    /// A person corrects the receipt's wrong key fields with the label's values and accepts it.
    private func settle(_ receiptID: Int64, wrong: [KeyField], label: FixtureLabel) async throws {
        let corrections = try Self.corrections(for: wrong, label: label)
        try await store.review(receiptID, corrections: corrections, decision: .accept, by: Self.person)
    }

    /// Works the review queue after the batch, in the batch's order: a receipt still held is settled by a person,
    /// then `drain` runs what that queued; one the machine accepted meanwhile is scored as the machine left it.
    private func settleAfterBatch(_ steps: inout [ReplayStep], labels: [FixtureLabel], drain: () async throws -> Void)
        async throws
    {
        for index in steps.indices where steps[index].touched && !steps[index].dead {
            let receiptID = steps[index].receiptID
            guard let detail = try await store.receipt(receiptID) else {
                throw BenchError(message: "\(steps[index].name): receipt \(receiptID) vanished during the replay")
            }
            let wrong = Self.wrongKeyFields(detail, label: labels[index])
            guard detail.status == .needsReview else {
                steps[index].touched = false
                steps[index].decidedAgain = true
                steps[index].wrongWhenAccepted = wrong.map(\.rawValue)
                continue
            }
            try await settle(receiptID, wrong: wrong, label: labels[index])
            steps[index].corrected = wrong.map(\.rawValue)
            try await drain()
        }
    }

    /// Whether two labels describe one receipt: the same merchant (`ReceiptScorer.sameMerchantLabels`) and total,
    /// and the same date, or no date on either (a receipt that prints none, photographed twice).
    static func sameReceipt(_ first: FixtureLabel, _ second: FixtureLabel) -> Bool {
        KeyField.allCases.allSatisfy { field in
            switch (labeled(field, first), labeled(field, second)) {
            case (let expected?, let got?) where field == .merchant: ReceiptScorer.sameMerchantLabels(expected, got)
            case (let expected?, let got?): ReceiptScorer.matches(scoredField(field), expected: expected, got: got)
            case (nil, nil): field == .date
            default: false
            }
        }
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

/// The replay's figures for one group of receipts (a dataset, or all), over the whole run, each half of it, and
/// the receipts whose merchant was seen before in the run against those whose merchant was not.
package struct ReplayFigures: Sendable, Codable, Equatable {
    package var group: String
    package var receipts: Int
    package var touchesPer100: Double
    package var silentErrorsPer100: Double
    package var firstHalf: Half
    package var secondHalf: Half
    /// Receipts of a merchant an earlier receipt of the run had (`ReplayStep.merchantSeenBefore`).
    package var seenMerchant: Half
    /// Receipts of a merchant first seen.
    package var firstSeenMerchant: Half
    /// Of `seenMerchant`, those that are not a repeat of an earlier receipt (`ReplayStep.repeatsEarlierReceipt`): what
    /// confirming a merchant can save a person, since a repeat must be seen.
    package var seenMerchantNewReceipt: Half
    /// Repeats of an earlier receipt, and how many of them were caught (`ReplayStep.caughtAsRepeat`).
    package var repeats: Int
    package var repeatsCaught: Int
    /// Receipts whose job went dead (each a touch).
    package var dead: Int

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
        self.seenMerchant = half(ArraySlice(steps.filter(\.merchantSeenBefore)))
        self.firstSeenMerchant = half(ArraySlice(steps.filter { !$0.merchantSeenBefore }))
        self.seenMerchantNewReceipt = half(
            ArraySlice(steps.filter { $0.merchantSeenBefore && !$0.repeatsEarlierReceipt }))
        self.repeats = steps.filter(\.repeatsEarlierReceipt).count
        self.repeatsCaught = steps.filter { $0.repeatsEarlierReceipt && $0.caughtAsRepeat }.count
        self.dead = steps.filter(\.dead).count
    }

    /// Per dataset (in name order) and `all`.
    package static func table(_ steps: [ReplayStep]) -> [ReplayFigures] {
        let datasets = Set(steps.map(\.dataset)).sorted()
        return datasets.map { dataset in ReplayFigures(group: dataset, steps: steps.filter { $0.dataset == dataset }) }
            + [ReplayFigures(group: "all", steps: steps)]
    }
}
