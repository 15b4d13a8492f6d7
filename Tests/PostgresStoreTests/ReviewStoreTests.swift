import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// The review port over a real database: queue, corrections with their audit trail, decisions, what corrections
/// teach, rules and reports.
@Suite struct ReviewStoreTests {
    private let start = Date(timeIntervalSince1970: 1_700_000_000)

    @Test func queueListsReceiptsNeedingReviewOldestFirstWithReasonsAndCounts() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let newer = try await ReviewSeed.receipt(
                text: ReviewSeed.unbalancedText, committedAt: start + 60, in: connection)
            let older = try await ReviewSeed.receipt(
                text: ReviewSeed.unbalancedText, committedAt: start, in: connection)
            let balanced = try await ReviewSeed.receipt(
                text: ReviewSeed.balancedText, machineAccepted: true, in: connection)
            let store = PostgresReviewStore(database: connection)

            let queue = try await store.queue(ReviewQueueQuery())

            #expect(queue.rows.map(\.receiptID) == [older, newer])
            #expect(!queue.rows.contains { $0.receiptID == balanced })
            #expect(queue.total == 2)
            #expect(queue.rows.first?.reasons.contains(.unbalanced) == true)
            // The second seeded receipt repeats merchant, date and total: a possible duplicate of the first.
            #expect(queue.counts[.possibleDuplicate] == 1)
            #expect(
                try await store.queue(ReviewQueueQuery(reason: .possibleDuplicate)).rows.map(\.receiptID) == [older])
            #expect(try await store.nextInQueue(after: older) == newer)
            #expect(try await store.nextInQueue(after: newer) == older, "wraps to the oldest")
        }
    }

    /// A receipt the LLM could not be asked about waits for the failure to be fixed, not for a disagreement to be
    /// settled: its own reason, by its finding's code. A model that answered and disagreed keeps `llm_disagreement`.
    @Test func aReceiptTheLLMCouldNotReadListsAsLLMCallFailedNotAsADisagreement() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let notAsked = try await ReviewSeed.receipt(
                text: ReviewSeed.balancedText,
                extraFindings: [
                    LLMCallOutcome.notUsedFinding("the provider refused the API key (HTTP 401); check llm.apiKey")
                ], in: connection)
            // Another merchant, date and total, so that it is not a possible duplicate of the first.
            let disagreed = try await ReviewSeed.receipt(
                text: "CORNER CAFE\nDate: 2024-05-21\nTea 2.00\nCake 3.00\nSUBTOTAL 5.00\nTAX 0.00\nTOTAL 5.00",
                extraFindings: [
                    Finding(
                        .llmValueNotPrinted, field: .merchant,
                        "the LLM merchant 'STARBUCKS' is not in the OCR text; kept the rules' 'CORNER CAFE'")
                ],
                in: connection)
            let store = PostgresReviewStore(database: connection)

            let failed = try await store.queue(ReviewQueueQuery(reason: .llmFailed))

            let notAskedReasons = try #require(try await store.receipt(notAsked)?.reasons)
            let disagreedReasons = try #require(try await store.receipt(disagreed)?.reasons)
            #expect(notAskedReasons.contains(.llmFailed) && !notAskedReasons.contains(.llmDisagreement))
            #expect(disagreedReasons.contains(.llmDisagreement) && !disagreedReasons.contains(.llmFailed))
            #expect(failed.rows.map(\.receiptID) == [notAsked])
            #expect(failed.counts[.llmFailed] == 1 && failed.counts[.llmDisagreement] == 1)
        }
    }

    /// Issue 17's closing note: a receipt whose checks passed but that the acceptance model held back waited in the
    /// queue with no reason. It waits because its total is not sure, and its finding says how sure.
    @Test func aReceiptOnlyTheModelHeldBackListsAsTotalNotSure() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let heldBack = try await ReviewSeed.receipt(text: ReviewSeed.heldBackText, in: connection)
            let unbalanced = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            try await ReviewSeed.receipt("sroie_030.jpg", text: ReviewSeed.markupText, in: connection)
            let store = PostgresReviewStore(database: connection)

            let detail = try #require(try await store.receipt(heldBack))
            let outcome = try await connection.query(
                "SELECT validation_outcome FROM expenses WHERE receipt_id = $1", [heldBack])
            let filtered = try await store.queue(ReviewQueueQuery(reason: .totalNotSure))
            let unexplained = try await connection.query(
                "SELECT count(*) AS n FROM expenses WHERE status = 'needs_review' AND cardinality(review_reasons) = 0")

            #expect(try outcome.first?.string("validation_outcome") == "balanced")
            #expect(detail.status == .needsReview)
            // Held back by the trust models alone: one reason and one finding per key field not trusted, the total
            // among them (the merchant of a text-only page is not trusted either under the committed fit).
            let trust = detail.findings.filter { $0.code == .notTrusted }
            #expect(trust.contains { $0.field == .total }, "\(detail.findings)")
            #expect(trust.first { $0.field == .total }?.message.hasPrefix("total not sure (") == true)
            #expect(detail.reasons.contains(.totalNotSure))
            #expect(
                detail.reasons
                    == trust.compactMap { $0.field.flatMap { KeyField(rawValue: $0.rawValue) } }.map(
                        ReviewReason.notSure))
            #expect(filtered.rows.map(\.receiptID) == [heldBack])
            #expect(filtered.rows.first?.reasons == detail.reasons)
            #expect(filtered.counts[.totalNotSure] == 1)
            let unbalancedReasons = try await store.receipt(unbalanced)?.reasons ?? []
            #expect(unbalancedReasons.first == .unbalanced, "a failed check is its own reason")
            #expect(!unbalancedReasons.contains(.totalNotSure), "a total that does not add up is not also 'not sure'")
            #expect(try unexplained.first?.int("n") == 0, "every receipt in review says why")
        }
    }

    @Test func receiptDetailHasFieldsEvidenceLayoutAndFindings() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            let detail = try #require(try await PostgresReviewStore(database: connection).receipt(id))

            let total = try #require(detail.reading(.total))
            #expect(total.value == "7.95")
            #expect(total.evidenceLines == [7], "TOTAL is the eighth OCR line")
            #expect(detail.ocrLines[7] == "TOTAL 7.95")
            #expect(detail.layout?.lineBoxes.count == detail.ocrLines.count)
            #expect(detail.status == .needsReview)
            #expect(!detail.findings.isEmpty)
            #expect(detail.reasons.first == .unbalanced && !detail.reasons.contains(.totalNotSure))
        }
    }

    /// A stored value the page shows that is damaged — a layout that is not a layout, findings that are not a list,
    /// a review reason this program does not know — is an error naming its column, never an empty layout, no
    /// findings or a reason dropped unseen.
    @Test func aDamagedStoredValueIsAnErrorNamingItsColumn() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            let store = PostgresReviewStore(database: connection)
            let damages = [
                ("ocr_layout", "UPDATE expenses SET ocr_layout = '{\"lines\": 3}' WHERE receipt_id = $1"),
                ("findings", "UPDATE expenses SET findings = '{\"code\": \"unbalanced\"}' WHERE receipt_id = $1"),
                ("reasons", "UPDATE expenses SET review_reasons = '{not_a_reason}' WHERE receipt_id = $1"),
            ]
            for (column, damage) in damages {
                try await connection.query(damage, [id])
                do {
                    _ = try await store.receipt(id)
                    Issue.record("a damaged \(column) was read as if it were not there")
                } catch let error as PostgresError {
                    #expect(error.code == .decodingFailed)
                    #expect(error.message.contains("'\(column)'"), "\(error.message)")
                }
                try await connection.query(
                    "UPDATE expenses SET ocr_layout = NULL, findings = '[]', review_reasons = '{unbalanced}' "
                        + "WHERE receipt_id = $1", [id])
            }
        }
    }

    @Test func correctionKeepsTheMachineValueWhoAndWhenAndChangesTheExpense() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            let store = PostgresReviewStore(database: connection)

            let first = try await store.review(id, corrections: [.total: "6.75"], decision: nil, by: "alice")
                .corrections
            let second = try await store.review(
                id, corrections: [.total: "6.80", .merchant: "Corner Bakery"], decision: nil, by: "bob"
            ).corrections
            let unchanged = try await store.review(id, corrections: [.total: "6.8"], decision: nil, by: "bob")
                .corrections

            #expect(first.map(\.personValue) == ["6.75"])
            #expect(first.first?.machineValue == "7.95")
            #expect(
                second.first { $0.field == .field(.total) }?.machineValue == "7.95", "the machine's value, not alice's")
            #expect(unchanged.isEmpty, "the same amount written differently is no change")
            let detail = try #require(try await store.receipt(id))
            #expect(detail.reading(.total)?.value == "6.80")
            #expect(detail.reading(.total)?.correction?.correctedBy == "bob")
            #expect(detail.reading(.merchant)?.value == "Corner Bakery")
            #expect(detail.corrections.count == 3)
            #expect(detail.status == .needsReview, "a correction alone does not resolve the receipt")
        }
    }

    @Test func acceptAndRejectChangeTheStatusAndTheReports() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let kept = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            let junk = try await ReviewSeed.receipt("sroie_030.jpg", text: ReviewSeed.unbalancedText, in: connection)
            let store = PostgresReviewStore(database: connection)
            #expect(try await store.spending(by: .month, month: nil).isEmpty, "nothing accepted yet")

            try await store.review(kept, corrections: [.total: "6.75"], decision: .accept, by: "alice")
            try await store.review(junk, corrections: [:], decision: .reject, by: "alice")

            #expect(try await store.queue(ReviewQueueQuery()).total == 0)
            #expect(try await store.receipt(kept)?.status == .accepted)
            #expect(try await store.receipt(junk)?.status == .rejected)
            #expect(try await store.receipt(kept)?.reasons == [], "a person's decision leaves no reason to wait")
            #expect(try await store.receipt(junk)?.reasons == [])
            let months = try await store.spending(by: .month, month: nil)
            #expect(
                months == [
                    SpendingRow(
                        key: "2024-05", currency: months.first?.currency, expenses: 1, total: Decimal(string: "6.75")!)
                ])
            #expect(try await store.spending(by: .month, month: "2024-06").isEmpty)
            #expect(try await store.receipt(kept)?.corrections.last?.field == .status)
        }
    }

    @Test func correctedFieldsSurviveEveryLaterWriteOfTheExpense() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            let store = PostgresReviewStore(database: connection)
            try await store.review(
                id, corrections: [.total: "6.75", .category: "Groceries"], decision: .accept, by: "alice")

            // A reprocess rewriting the row in place with another reading…
            try await Self.reprocess(
                id, text: ReviewSeed.unbalancedText.replacingOccurrences(of: "SUBTOTAL 6.25", with: "SUBTOTAL 6.30"),
                in: connection)
            let updated = try #require(try await store.receipt(id))
            // …and a worker committing it again after the expense was deleted.
            try await connection.query("DELETE FROM expenses WHERE receipt_id = $1", [id])
            try await ReviewSeed.commit(text: ReviewSeed.unbalancedText, receiptID: id, in: connection)
            let replaced = try #require(try await store.receipt(id))
            // A re-categorization leaves the person's category.
            let recategorized = try await store.applyCategories([
                CategoryChange(receiptID: id, category: .shopping, itemCategories: [])
            ])

            for detail in [updated, replaced] {
                #expect(detail.reading(.total)?.value == "6.75")
                #expect(detail.reading(.category)?.value == "Groceries")
                #expect(detail.status == .accepted)
                #expect(detail.reasons == [], "the person's accept leaves no reason to wait")
            }
            #expect(updated.reading(.subtotal)?.value == "6.30", "an uncorrected field takes the new reading")
            #expect(recategorized == 0)
            #expect(try await store.receipt(id)?.reading(.category)?.value == "Groceries")
        }
    }

    /// Commits a new reading of `text` over the receipt's expense, as a worker commits a reprocess job.
    private static func reprocess(_ receiptID: Int64, text: String, in connection: PostgresConnection) async throws {
        let record = try await ReviewSeed.record(text: text, receiptID: receiptID, in: connection)
        try await connection.transaction { connection in
            _ = try ExpenseStore.commit(record, jobID: 0, attempt: 2, replacing: true, in: connection)
        }
    }

    @Test func itemEditsKeepTheMachinesReadingWhoAndWhenAndChangeTheItems() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            let store = PostgresReviewStore(database: connection)
            #expect(try await store.receipt(id)?.items.map(\.name) == ["Croissant", "Coffee"])

            let first = try await store.review(
                id, corrections: [:],
                items: [
                    .change(position: 2, name: nil, quantity: .some(2), amount: Decimal(string: "5.50")),
                    .add(name: "Jam", quantity: nil, amount: Decimal(string: "1.20")!),
                ], decision: nil, by: "alice"
            ).corrections
            let second = try await store.review(
                id, corrections: [:], items: [.change(position: 2, name: "Latte", quantity: nil, amount: nil)],
                decision: nil, by: "bob"
            ).corrections
            let removal = try await store.review(
                id, corrections: [:], items: [.remove(position: 1)], decision: nil, by: "bob"
            ).corrections

            #expect(first.map(\.field) == [.item, .item])
            #expect(first.map(\.machineValue) == ["#2 Coffee = 2.75", nil])
            #expect(first.map(\.personValue) == ["#2 Coffee × 2 = 5.50", "#3 Jam = 1.20"])
            #expect(second.first?.machineValue == "#2 Coffee = 2.75", "the machine's reading, not alice's")
            #expect(removal.map(\.personValue) == [nil])
            let detail = try #require(try await store.receipt(id))
            #expect(detail.items.map(\.name) == ["Latte", "Jam"])
            #expect(detail.items.map(\.position) == [1, 2])
            #expect(detail.items.map(\.totalPrice) == ["5.50", "1.20"])
            #expect(detail.items.first?.quantity == "2")
            #expect(detail.corrections.filter { $0.field == .item }.count == 4)
            #expect(detail.corrections.last?.correctedBy == "bob")
            await #expect(throws: ReviewError.self) {
                try await store.review(id, corrections: [:], items: [.remove(position: 3)], decision: nil, by: "bob")
            }
        }
    }

    @Test func editedItemsSurviveEveryLaterWriteOfTheExpense() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let id = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            let untouched = try await ReviewSeed.receipt(text: ReviewSeed.balancedText, in: connection)
            let store = PostgresReviewStore(database: connection)
            try await store.review(
                id, corrections: [:],
                items: [
                    .change(position: 1, name: nil, quantity: nil, amount: Decimal(string: "4.70")),
                    .remove(position: 2),
                ],
                decision: nil, by: "alice")
            let expected = try #require(try await store.receipt(id)).items

            // A reprocess rewriting the row and its items in place…
            try await Self.reprocess(
                id, text: ReviewSeed.unbalancedText.replacingOccurrences(of: "TOTAL 7.95", with: "TOTAL 9.90"),
                in: connection)
            let updated = try #require(try await store.receipt(id))
            // …and one deleting the expense and committing it again the way a worker commits.
            try await connection.query("DELETE FROM expenses WHERE receipt_id = $1", [id])
            try await ReviewSeed.commit(text: ReviewSeed.unbalancedText, receiptID: id, in: connection)
            let replaced = try #require(try await store.receipt(id))
            // A re-categorization writes the expense too.
            try await store.applyCategories([
                CategoryChange(receiptID: id, category: .groceries, itemCategories: [.household])
            ])
            let recategorized = try #require(try await store.receipt(id))

            #expect(expected.map(\.name) == ["Croissant"])
            #expect(expected.map(\.totalPrice) == ["4.70"])
            for detail in [updated, replaced] {
                #expect(detail.items == expected)
            }
            #expect(updated.reading(.total)?.value == "9.90", "an uncorrected field takes the new reading")
            #expect(recategorized.items.map(\.name) == ["Croissant"])
            #expect(recategorized.items.map(\.category) == [.household], "items keep the new categories")
            #expect(try await store.receipt(untouched)?.items.map(\.name) == ["Milk", "Bread"])
        }
    }

    /// A corrected merchant is the name the pipeline gets for a later receipt with the same header
    /// (`PostgresLearnedMerchants`, asked before the commit; `ReceiptPipelineTests` checks that the pipeline takes it),
    /// and the commit that carries it counts its use.
    @Test func correctedMerchantNamesLaterReceiptsWithTheSameHeader() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let store = PostgresReviewStore(database: connection)
            let learned = PostgresLearnedMerchants(database: connection)
            let first = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            let machine = try await store.receipt(first)?.reading(.merchant)?.value
            try await store.review(first, corrections: [.merchant: "Corner Bakery Café"], decision: nil, by: "alice")
            let other = try await ReviewSeed.receipt(text: ReviewSeed.balancedText, in: connection)

            let later = try await ReviewSeed.storedReceipt("sroie_030.jpg", in: connection)
            var record = try await ReviewSeed.record(
                text: ReviewSeed.unbalancedText.replacingOccurrences(of: "7.95", with: "8.95"), receiptID: later,
                in: connection)
            let name = try await learned.learnedMerchant(
                ocrText: record.ocrText, merchantLines: record.result.draft.merchant?.sourceLines ?? [],
                receiptID: later)
            record.learnedMerchant = name
            let carrying = record
            try await connection.transaction { connection in
                _ = try ExpenseStore.commit(carrying, jobID: 0, attempt: 1, in: connection)
            }
            let otherHeader = try await learned.learnedMerchant(
                ocrText: "CORNER BAKERY\nDate: 2024-05-14", merchantLines: [1], receiptID: later)

            #expect(machine != "Corner Bakery Café")
            #expect(name?.name == "Corner Bakery Café")
            #expect(otherHeader == nil, "another header names no one")
            let counters = try await store.learningCounters()
            // The corrected header, and the other receipt's own, which the worker accepted and so learned from.
            #expect(try await store.receipt(other)?.status == .accepted)
            #expect(counters.merchantAliases == 2)
            #expect(counters.merchantAliasUses == 1)
        }
    }

    @Test func unknownReceiptsAndReceiptsWithoutExpenseAreRefusedClearly() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let store = PostgresReviewStore(database: connection)
            let pending =
                try await connection.transaction { connection in
                    try ReceiptStore.insert(
                        [
                            NewReceipt(
                                sha256: String(repeating: "ab", count: 32), originalName: "queued.jpg",
                                originalPath: "/inbox/queued.jpg", format: .jpeg, bytes: [1, 2, 3])
                        ], in: connection)
                }.values.first ?? 0

            #expect(try await store.receipt(987_654) == nil)
            #expect(try await store.image(987_654) == nil)
            await #expect(throws: ReviewError.self) {
                try await store.review(987_654, corrections: [:], decision: .accept, by: "a")
            }
            do {
                _ = try await store.receipt(pending)
                Issue.record("a receipt without expense has no detail")
            } catch let error as ReviewError {
                #expect(error.code == .noExpense)
                #expect(error.message.contains("pipeline show \(pending)"))
            }
            #expect(try await store.image(pending)?.bytes == [1, 2, 3])
        }
    }

    @Test func rulesAreValidatedTestedAndAppliedWithoutTouchingCorrectedCategories() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let store = PostgresReviewStore(database: connection)
            let bakery = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            let corrected = try await ReviewSeed.receipt(
                "sroie_030.jpg", text: ReviewSeed.unbalancedText, in: connection)
            try await store.review(corrected, corrections: [.category: "Business"], decision: nil, by: "alice")
            let rule = CategoryRule(.merchant(.groceries), pattern: "corner bakery", priority: 1)

            await #expect(throws: ReviewError.self) {
                try await store.saveRule(
                    try CategoryRule(target: .merchant, pattern: "x", categoryNamed: "Snacks"), id: nil,
                    learnedFrom: nil,
                    by: "a")
            }
            let test = try await store.testRule(rule)
            #expect(Set(test.matched.map(\.receiptID)) == [bakery, corrected])
            #expect(
                try await store.categoryRules().allSatisfy { $0.rule.pattern != "corner bakery" },
                "a test saves nothing")

            let id = try await store.saveRule(rule, id: nil, learnedFrom: bakery, by: "alice")
            let changes = Recategorization(rules: try await store.categoryRules().map(\.rule))
                .changes(for: try await store.categorizationSamples(since: nil, limit: 100))
            let changed = try await store.applyCategories(changes)

            #expect(changed == 1)
            #expect(try await store.receipt(bakery)?.reading(.category)?.value == "Groceries")
            #expect(try await store.receipt(corrected)?.reading(.category)?.value == "Business")
            #expect(try await store.learningCounters().learnedRules == 1)
            #expect(try await store.learningCounters().learnedRuleMatches == 0, "no expense came after the rule")
            try await ReviewSeed.receipt(
                "sroie_006.jpg", text: ReviewSeed.unbalancedText.replacingOccurrences(of: "7.95", with: "9.95"),
                in: connection)
            #expect(
                try await store.learningCounters().learnedRuleMatches == 1,
                "a later expense of the merchant counts as the learned rule's match")
            #expect(try await store.removeRule(id))
            #expect(try await !store.removeRule(id))
        }
    }

    /// Top merchants by the sum spent, not by its text ("5.50" sorts after "12.50" as text).
    @Test func merchantsAreOrderedBySpend() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let store = PostgresReviewStore(database: connection)
            try await ReviewSeed.receipt(text: ReviewSeed.balancedText, machineAccepted: true, in: connection)
            try await ReviewSeed.receipt(
                "sroie_030.jpg",
                text: ReviewSeed.balancedText.replacingOccurrences(of: "GREEN GROCER", with: "CORNER SHOP")
                    .replacingOccurrences(of: "Milk 2.40", with: "Milk 9.40")
                    .replacingOccurrences(of: "5.50", with: "12.50"),
                machineAccepted: true, in: connection)

            let merchants = try await store.spending(by: .merchant, month: nil)

            #expect(merchants.map(\.total) == [Decimal(string: "12.50"), Decimal(string: "5.50")], "\(merchants)")
        }
    }

    /// Accepted expenses only, as `report --item` says: a receipt awaiting review is left out.
    @Test func priceHistoryFindsAnItemAcrossAcceptedReceiptsOldestFirst() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let store = PostgresReviewStore(database: connection)
            try await ReviewSeed.receipt(text: ReviewSeed.balancedText, machineAccepted: true, in: connection)
            try await ReviewSeed.receipt(
                "sroie_030.jpg",
                text: ReviewSeed.balancedText.replacingOccurrences(of: "2024-05-20", with: "2024-04-02")
                    .replacingOccurrences(of: "Milk 2.40", with: "Milk 2.20")
                    .replacingOccurrences(of: "5.50", with: "5.30"),
                machineAccepted: true, in: connection)
            try await ReviewSeed.receipt(
                "sroie_035.jpg",
                text: ReviewSeed.balancedText.replacingOccurrences(of: "2024-05-20", with: "2024-03-01")
                    .replacingOccurrences(of: "Milk 2.40", with: "Milk 9.40"),
                in: connection)

            let history = try await store.priceHistory(item: "milk", limit: 10)
            let waiting = try await connection.query("SELECT count(*) AS n FROM expenses WHERE status = 'needs_review'")
            #expect(try waiting.first?.int("n") == 1, "the March receipt's items do not add up: it waits")

            #expect(history.map(\.date) == ["2024-04-02", "2024-05-20"])
            #expect(history.map(\.totalPrice) == [Decimal(string: "2.20"), Decimal(string: "2.40")])
            #expect(try await store.priceHistory(item: "%", limit: 10).isEmpty, "wildcards are searched literally")
        }
    }
}
