import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// Accepted and corrected expenses teach merchant names that later receipts are read with (migration 0090).
@Suite struct LearnedMerchantsTests {
    static let misreadText = """
        LDL
        Date: 2024-05-14
        Milk 2.40
        Bread 3.10
        TOTAL 5.50
        """
    /// A receipt printing a total and a grand total (the machine reads the grand total), its date day first.
    static let twoTotalsText = """
        ALDI
        Datum: 14.05.2024
        Milk 2.40
        Bread 3.10
        TOTAL 5.50
        GRAND TOTAL 6.00
        """

    @Test func acceptedAndCorrectedExpensesTeachTheirMerchantsWithTheirHeader() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let store = PostgresReviewStore(database: connection)
            let learned = PostgresLearnedMerchants(database: connection)
            #expect(try await learned.knownMerchants().isEmpty)

            // A person corrects a misread name and accepts; the machine accepts another receipt as read.
            let corrected = try await ReviewSeed.receipt(text: Self.misreadText, in: connection)
            try await store.review(
                corrected, corrections: [.merchant: "Lidl", .category: "Groceries"], decision: .accept, by: "alice")
            try await ReviewSeed.receipt(
                "sroie_030.jpg", text: ReviewSeed.balancedText, machineAccepted: true, in: connection)
            // A receipt still waiting for review teaches nothing.
            try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)

            let known = try await learned.knownMerchants()
            #expect(Set(known.map(\.name)) == ["Lidl", "GREEN GROCER"])
            let lidl = try #require(known.first { $0.name == "Lidl" })
            #expect(lidl.readings == ["LDL"], "the header the name was read from")
            let grocer = try #require(known.first { $0.name == "GREEN GROCER" })
            #expect(lidl.confirmations == 1 && lidl.personConfirmations == 1, "a person's")
            #expect(grocer.confirmations == 1 && grocer.personConfirmations == 0, "the machine's alone")
        }
    }

    @Test func aLaterHeaderThatReadsLikeAKnownMerchantOffersItsCanonicalName() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let store = PostgresReviewStore(database: connection)
            let first = try await ReviewSeed.receipt(
                text: Self.misreadText.replacingOccurrences(of: "LDL", with: "LIDL"), in: connection)
            try await store.review(first, corrections: [.merchant: "Lidl"], decision: .accept, by: "alice")
            let known = try await PostgresLearnedMerchants(database: connection).knownMerchants()

            // Another misreading of the same header (not the header learned, so no exact alias applies).
            let page = OCRPage(text: Self.misreadText)
            let candidates = ReceiptExtractor.extractWithCandidates(page, reader: .ppocr, known: known).candidates
                .merchant
            let unknown = ReceiptExtractor.extractWithCandidates(page, reader: .ppocr).candidates.merchant

            #expect(
                candidates.contains {
                    $0.value == "Lidl" && $0.features[.knownMerchant] == 0.75 && $0.features[.knownConfirmations] == 0.2
                })
            #expect(!unknown.contains { $0.value == "Lidl" })
            #expect(!candidates.contains { $0.value == "GREEN GROCER" })
        }
    }

    /// A known merchant counts its accepted receipts, and a receipt read as it notes how often it was confirmed, and
    /// how often by a person once the machine accepted some of them on its own.
    @Test func aKnownMerchantCountsItsConfirmationsAndAReadingNotesThem() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let store = PostgresReviewStore(database: connection)
            let text = Self.misreadText.replacingOccurrences(of: "LDL", with: "LIDL")
            for _ in 0..<2 {
                let receipt = try await ReviewSeed.receipt(text: text, in: connection)
                try await store.review(receipt, corrections: [.merchant: "Lidl"], decision: .accept, by: "alice")
            }
            let known = try await PostgresLearnedMerchants(database: connection).knownMerchants()
            let lidl = try #require(known.first { $0.name == "Lidl" })

            let draft = ReceiptExtractor.extract(OCRPage(text: text), known: known)

            #expect(lidl.confirmations == 2)
            #expect(draft.evidence?.merchant?.features[.knownConfirmations] == 0.4)
            #expect(
                draft.notes.contains {
                    $0.code == .learnedMerchant && $0.message == "known merchant: confirmed 2 times"
                })

            // The machine accepts a third receipt of it, printed in the person's spelling, with no person in the loop.
            try await ReviewSeed.receipt(
                "sroie_030.jpg", text: text.replacingOccurrences(of: "LIDL", with: "Lidl"), machineAccepted: true,
                in: connection)
            let later = try await PostgresLearnedMerchants(database: connection).knownMerchants()
            let laterDraft = ReceiptExtractor.extract(OCRPage(text: text), known: later)

            let laterLidl = try #require(later.first { $0.name == "Lidl" })
            #expect(laterLidl.confirmations == 3 && laterLidl.personConfirmations == 2)
            #expect(
                laterDraft.notes.filter { $0.code == .learnedMerchant }.map(\.message) == [
                    "known merchant: accepted 3 times, 2 by a person"
                ])
        }
    }

    /// An accepted receipt teaches how its merchant prints its total and date (`printed_layout`, migration 0096),
    /// and a total a person corrected teaches the line the person's value is printed on, not the one the machine
    /// read.
    @Test func acceptedReceiptsTeachHowTheirMerchantPrintsItsTotalAndDate() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let store = PostgresReviewStore(database: connection)
            let lidl = try await ReviewSeed.receipt(
                text: Self.misreadText.replacingOccurrences(of: "LDL", with: "LIDL"), in: connection)
            try await store.review(lidl, corrections: [.merchant: "Lidl"], decision: .accept, by: "alice")
            let aldi = try await ReviewSeed.receipt(text: Self.twoTotalsText, in: connection)
            let machineRead = try await connection.query(
                "SELECT total::text AS total FROM expenses WHERE receipt_id = $1", [aldi]
            ).first?.string("total")
            try await store.review(
                aldi, corrections: [.merchant: "Aldi", .total: "5.50"], decision: .accept, by: "alice")

            let known = try await PostgresLearnedMerchants(database: connection).knownMerchants()
            let lidlLayout = try #require(known.first { $0.name == "Lidl" }?.layout)
            let aldiLayout = try #require(known.first { $0.name == "Aldi" }?.layout)

            #expect(lidlLayout.totalKeywords == ["TOTAL"])
            #expect(lidlLayout.dateForms.map(\.description) == ["yyyy-mm-dd"])
            #expect(machineRead.flatMap { Decimal(string: $0) } == 6, "the machine read the grand total")
            #expect(aldiLayout.totalKeywords == ["TOTAL"], "the line the person's total is printed on")
            #expect(aldiLayout.dateForms.map(\.description) == ["dd.mm.yyyy"])
        }
    }

    /// A corrected total on an expense whose stored field sources are damaged fails the correction, naming the
    /// receipt and the column, instead of learning its layout from no lines.
    @Test func damagedFieldSourcesFailACorrectionNamingTheReceipt() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let store = PostgresReviewStore(database: connection)
            let receipt = try await ReviewSeed.receipt(text: Self.twoTotalsText, in: connection)
            try await connection.query(
                """
                UPDATE expenses
                SET field_sources = jsonb_set(coalesce(field_sources, '{}'), '{total}', '{"lines": {"line": 3}}')
                WHERE receipt_id = $1
                """, [receipt])

            let error = await #expect(throws: (any Error).self) {
                try await store.review(receipt, corrections: [.total: "5.50"], decision: nil, by: "alice")
            }
            let message = error.map { "\($0)" } ?? ""
            #expect(message.contains("receipt \(receipt): relearning how it prints its total and date"), "\(message)")
            #expect(message.contains("column 'total_lines' holds JSON that is not"), "\(message)")
        }
    }
}
