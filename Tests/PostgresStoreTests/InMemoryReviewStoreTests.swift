import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// The review stores' in-memory fake answers as the real store does: the same receipts, corrections, item edits,
/// decisions and rules, played on both, read back the same through every port. The review page's tests rely on it.
@Suite struct InMemoryReviewStoreTests {
    /// Plays the same history on a store and returns what every read of it answers.
    /// - Parameters:
    ///   - seed: stores a shipped image and commits the reading of a text (committed at, machine-accepted).
    ///   - recommit: commits a new reading of a text for a receipt over its expense, as a reprocess does.
    private func play(
        _ store: some ReviewStore, seed: (String, String, Date, Bool) async throws -> Int64,
        recommit: (Int64, String) async throws -> Void
    ) async throws -> [String] {
        let first = try await seed("sroie_006.jpg", ReviewSeed.unbalancedText, Date(timeIntervalSince1970: 10), false)
        let second = try await seed("sroie_030.jpg", ReviewSeed.markupText, Date(timeIntervalSince1970: 20), false)
        let third = try await seed("sroie_035.jpg", ReviewSeed.balancedText, Date(timeIntervalSince1970: 30), true)
        let heldBack = try await seed("sroie_051.jpg", ReviewSeed.heldBackText, Date(timeIntervalSince1970: 40), false)
        var reads: [String] = []
        func read(_ label: String, _ value: Any) { reads.append("\(label): \(value)") }
        /// Corrections without their time, which the database stamps itself.
        func untimed(_ corrections: [Correction]) -> [String] {
            corrections.map {
                "\($0.field.rawValue) \($0.machineValue ?? "nil")→\($0.personValue ?? "nil") by \($0.correctedBy)"
            }
        }
        func detail(_ id: Int64) async throws {
            var detail = try #require(try await store.receipt(id))
            read("corrections \(id)", untimed(detail.corrections))
            detail.corrections = []
            detail.fields = detail.fields.map { field in
                var field = field
                field.correction = nil
                // Confidences pass through JSON in the database: equal to nine places.
                field.confidence = field.confidence.map { ($0 * 1e9).rounded() / 1e9 }
                return field
            }
            read("receipt \(id)", detail)
        }

        func queue(_ label: String, _ query: ReviewQueueQuery = ReviewQueueQuery()) async throws {
            let queue = try await store.queue(query)
            read(label, queue.rows)
            read(label + " counts", queue.counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0)" })
            read(label + " total", queue.total)
        }

        try await queue("queue")
        try await queue("held back", ReviewQueueQuery(reason: .totalNotSure))
        try await queue("second page", ReviewQueueQuery(limit: 1, offset: 1))
        read("next after \(second)", try await store.nextInQueue(after: second) as Any)
        for id in [first, second, third, heldBack] { try await detail(id) }
        let image = try await store.image(second)
        read("image", "\(image?.format as Any) \(image?.bytes.count as Any)")
        let unknownImage = try await store.image(999)
        read("unknown receipt", try await store.receipt(999) == nil && unknownImage == nil)
        do {
            try await store.review(999, corrections: [.total: "1.00"], decision: .accept, by: "bob")
            read("unknown review", "accepted")
        } catch let error as ReviewError {
            read("unknown review", error)
        }

        read(
            "first review",
            untimed(
                try await store.review(
                    first, corrections: [.merchant: "Corner Bakery", .total: "6.75"],
                    items: [.change(position: 1, name: "Croissants", quantity: .some(2), amount: 7)], decision: nil,
                    by: "alice"
                ).corrections))
        read(
            "second review",
            untimed(
                try await store.review(
                    first, corrections: [.total: "6.750", .tax: "0.75"],
                    items: [.add(name: "Tea", quantity: nil, amount: 1)],
                    decision: .accept, by: "bob"
                ).corrections))
        read(
            "rejected",
            untimed(try await store.review(second, corrections: [:], decision: .reject, by: "bob").corrections))
        read(
            "date",
            untimed(
                try await store.review(heldBack, corrections: [.date: "2024-05-21"], decision: nil, by: "carol")
                    .corrections))
        try await detail(first)
        try await queue("queue after")
        // A reprocess reads the receipt again: the person's values, items and decision stay.
        try await recommit(first, ReviewSeed.balancedText)
        // Read as the rejected second receipt reads: a possible duplicate of it.
        try await recommit(heldBack, ReviewSeed.markupText)
        try await detail(first)
        try await detail(heldBack)
        read("next after \(first)", try await store.nextInQueue(after: first) as Any)

        let rule = try await store.saveRule(
            CategoryRule(.merchant(.groceries), pattern: "corner bakery", priority: 5), id: nil,
            learnedFrom: first, by: "alice")
        read("rules", try await store.categoryRules().map { "\($0.rule) \($0.learnedFrom as Any)" })
        read(
            "rule test",
            try await store.testRule(CategoryRule(.keyword(.groceries), pattern: "milk")))
        let samples = try await store.categorizationSamples(since: nil, limit: 10)
        read("samples", samples)
        let bread = CategoryRule(.keyword(.shopping), pattern: "bread")
        read("applied", try await store.applyCategories(Recategorization(rules: [bread]).changes(for: samples)))
        read("samples after", try await store.categorizationSamples(since: nil, limit: 10))
        read("removed", try await store.removeRule(rule))
        read("removed again", try await store.removeRule(rule))
        for grouping in SpendingGrouping.allCases {
            read("spending by \(grouping)", try await store.spending(by: grouping, month: nil))
        }
        read("spending in May", try await store.spending(by: .merchant, month: "2024-05"))
        read("prices", try await store.priceHistory(item: "CROISSANT", limit: 10))
        // Merchant names are learned by the database store (from corrections and accepted expenses), which the fake
        // does not play: its alias counters are not compared.
        var counters = try await store.learningCounters()
        (counters.merchantAliases, counters.merchantAliasUses) = (0, 0)
        read("counters", counters)
        return reads
    }

    @Test func theFakeAnswersAsTheDatabaseDoes() async throws {
        let fake = InMemoryReviewStore(rules: try SeededCategoryRules.rules)
        let fakeReads = try await play(fake) { image, text, committedAt, accepted in
            try await ReviewSeed.receipt(
                image, text: text, committedAt: committedAt, machineAccepted: accepted, in: fake)
        } recommit: { id, text in
            let rules = try await fake.categoryRules().map(\.rule)
            try await fake.commit(ReviewSeed.record(text: text, receiptID: id, rules: rules), replacing: true)
        }
        let realReads = try await TestDatabase.withMigratedDatabase { connection, _ in
            try await play(PostgresReviewStore(database: connection)) { image, text, committedAt, accepted in
                try await ReviewSeed.receipt(
                    image, text: text, committedAt: committedAt, machineAccepted: accepted, in: connection)
            } recommit: { id, text in
                let record = try await ReviewSeed.record(text: text, receiptID: id, in: connection)
                try await connection.transaction { connection in
                    _ = try ExpenseStore.commit(record, jobID: 0, attempt: 2, replacing: true, in: connection)
                }
            }
        }
        #expect(fakeReads.count == realReads.count)
        for (fake, real) in zip(fakeReads, realReads) {
            #expect(fake == real)
        }
    }
}
