import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// What categorization learns from people and reads from a new database, over a real database.
@Suite struct CategoryHistoryTests {
    /// A person's category for one receipt is the category of the merchant's later receipts; a receipt whose
    /// category nobody chose teaches nothing, nor does a rejected one.
    @Test func aPersonsCategoryIsLearnedForTheSameMerchant() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let corrected = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            // Its total is not what subtotal and tax make: it waits in review until a person accepts it.
            let untouched = try await ReviewSeed.receipt(
                "sroie_030.jpg", text: "GREEN GROCER\nDate: 2024-05-20\nMilk 2.40\nSUBTOTAL 2.40\nTAX 0.50\nTOTAL 9.99",
                in: connection)
            let store = PostgresReviewStore(database: connection)
            let history = PostgresCategoryHistory(database: connection)
            #expect(try await history.learnedCategory(merchant: "Corner Bakery", receiptID: 999) == nil)

            try await store.review(corrected, corrections: [.category: "Shopping"], decision: nil, by: "alice")

            // Same words, other case and punctuation: the same merchant.
            #expect(try await history.learnedCategory(merchant: "corner  bakery.", receiptID: 999) == .shopping)
            #expect(try await history.learnedCategory(merchant: "CORNER BAKERY", receiptID: corrected) == nil)
            #expect(try await history.learnedCategory(merchant: "GREEN GROCER", receiptID: 999) == nil)
            try await store.review(untouched, corrections: [:], decision: .accept, by: "alice")
            let accepted = try await connection.query(
                "SELECT category FROM expenses WHERE receipt_id = $1", [untouched]
            ).first?.string("category")
            #expect(accepted != nil)
            #expect(try await history.learnedCategory(merchant: "Green Grocer", receiptID: 999)?.rawValue == accepted)
            try await store.review(corrected, corrections: [:], decision: .reject, by: "alice")
            #expect(try await history.learnedCategory(merchant: "Corner Bakery", receiptID: 999) == nil)
        }
    }

    /// The bench's rules are the ones a migrated database starts with, and every commit says what decided its
    /// category, which `pipeline stats` counts.
    @Test func seededRulesMatchANewDatabaseAndCategorySourcesAreCounted() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let stored = try await CategoryRuleStore.load(from: connection)
            func key(_ rule: CategoryRule) -> String {
                "\(rule.target.rawValue)|\(rule.pattern)|\(rule.categoryName)|\(rule.priority)"
            }
            let seeded = try SeededCategoryRules.rules
            #expect(Set(seeded.map(key)) == Set(stored.map(key)))
            #expect(seeded.contains { $0.pattern == "mcdonald's" }, "a doubled quote is one quote")

            try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            let stats = try await StatsStore.load(
                since: nil, latencyTarget: .seconds(5),
                pricing: LLMPricing(inputPerMillion: 0.15, outputPerMillion: 0.60), from: connection)
            #expect(stats.categorySources == ["rule": 1], "CORNER BAKERY matches the seeded rule 'bakery'")
        }
    }

    /// Every source the categorizer names can be stored: the column's check lists them all (migration 0101 added
    /// `trade`), so a new `CategorySource` without its migration fails here, not at a user's first commit.
    @Test func everyCategorySourceCanBeStored() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            for source in CategorySource.allCases {
                let updated = try await connection.query(
                    "UPDATE expenses SET category_source = $1 RETURNING category_source", [source.rawValue])
                #expect(try updated.first?.string("category_source") == source.rawValue)
            }
        }
    }

    /// A stored rule whose category its target does not allow (an expense category on an item rule, written past
    /// the rule checks) fails every read of the rules, naming the rule and what to do, instead of being dropped.
    @Test func aStoredRuleWithAnUnknownCategoryFailsTheReadNamingTheRule() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let inserted = try await connection.query(
                """
                INSERT INTO category_rules (match_on, pattern, category, priority)
                VALUES ('item', 'milo dinosaur', 'Groceries', 5) RETURNING id
                """)
            let id = try #require(try inserted.first?.int("id"))
            let store = PostgresReviewStore(database: connection)

            let loaded = await #expect(throws: PostgresError.self) {
                try await CategoryRuleStore.load(from: connection)
            }
            let listed = await #expect(throws: PostgresError.self) { try await store.categoryRules() }
            for error in [loaded, listed] {
                let message = error?.message ?? ""
                #expect(message.contains("category rule \(id) (item \"milo dinosaur\")"), "\(message)")
                #expect(message.contains("unknown item category \"Groceries\""), "\(message)")
                #expect(message.contains("pipeline categories remove \(id)"), "\(message)")
            }
        }
    }
}
