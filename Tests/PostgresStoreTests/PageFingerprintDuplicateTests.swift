import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// A similar page makes a receipt a possible duplicate only when a total or date read from both is the same and
/// neither differs: receipts of one shop share a layout (29 pairs of different train and dev receipts lie within 4
/// bits), not a day and an amount; the same merchant (its letters and digits), date and total make one whatever the
/// page, as do the same merchant and total on a receipt whose date was not read. Played on the database's commit and on the in-memory fake, which both decide with `PossibleDuplicate`.
@Suite struct PageFingerprintDuplicateTests {
    static let layout = PageFingerprint(bits: 0x0123_4567_89AB_CDEF)
    /// The same layout, 16 bits off (`PageFingerprint.similarPageDistance`).
    static let sameLayout = PageFingerprint(bits: 0x0123_4567_89AB_CDEF ^ 0xFFFF)

    static let firstVisit = """
        CORNER BAKERY
        123 Main Street
        Date: 2024-05-14
        Croissant 3.50
        Coffee 2.75
        TOTAL 6.25
        """
    /// Another visit to the same shop: its receipt has the same layout, another day and amount.
    static let secondVisit = """
        CORNER BAKERY
        123 Main Street
        Date: 2024-05-21
        Croissant 3.50
        Tea 2.20
        TOTAL 5.70
        """
    /// The first receipt scanned again, its merchant misread: only the page and the amounts say it is the same.
    static let rescan = """
        C0RNER BAKFRY
        123 Main Street
        Date: 2024-05-14
        Croissant 3.50
        Coffee 2.75
        TOTAL 6.25
        """

    /// The first receipt scanned again, its date lost to a fold: the page and the total say it is the same.
    static let undatedRescan = """
        CORNER BAKERY
        123 Main Street
        Croissant 3.50
        Coffee 2.75
        TOTAL 6.25
        """

    /// The first receipt photographed again on another table (nothing alike in the page), its name read without the
    /// space: the same merchant, date and total say it is the same.
    static let otherPhoto = """
        CORNERBAKERY
        123 Main Street
        Date: 2024-05-14
        Croissant 3.50
        Coffee 2.75
        TOTAL 6.25
        """
    static let otherTable = PageFingerprint(bits: ~0x0123_4567_89AB_CDEF)

    /// The first receipt photographed again on another table, its date lost to a fold: the same merchant and total,
    /// and no date read to tell it apart.
    static let undatedPhoto = """
        CORNER BAKERY
        123 Main Street
        Croissant 3.50
        Coffee 2.75
        TOTAL 6.25
        """
    /// Another visit's receipt, its date lost: the same merchant, another total.
    static let undatedOtherVisit = """
        CORNER BAKERY
        123 Main Street
        Croissant 3.50
        Tea 2.40
        TOTAL 5.90
        """

    /// A page of the same layout where neither a date nor a total could be read: nothing says it is that receipt.
    static let unread = """
        CORNER BAKERY
        123 Main Street
        Thank you
        """

    /// The possible-duplicate link each of the receipts gets, committed in order with their fingerprints.
    static func play(
        commit: (String, PageFingerprint) async throws -> Int64, duplicateOf: (Int64) async throws -> Int64?
    )
        async throws
    {
        let first = try await commit(firstVisit, layout)
        let second = try await commit(secondVisit, sameLayout)
        let again = try await commit(rescan, sameLayout)
        let unread = try await commit(unread, sameLayout)
        let undated = try await commit(undatedRescan, sameLayout)
        let photo = try await commit(otherPhoto, otherTable)
        let undatedPhoto = try await commit(undatedPhoto, otherTable)
        let undatedVisit = try await commit(undatedOtherVisit, otherTable)
        #expect(try await duplicateOf(first) == nil)
        #expect(try await duplicateOf(photo) == first, "the same merchant, date and total, a space read apart")
        #expect(try await duplicateOf(unread) == nil, "a page alone is a layout, not a receipt")
        #expect(try await duplicateOf(undatedPhoto) == first, "the same merchant and total, no date to tell them apart")
        #expect(try await duplicateOf(undatedVisit) == nil, "the same merchant, another total")
        #expect(try await duplicateOf(undated) == first, "a date not read does not tell the two apart")
        #expect(try await duplicateOf(second) == nil, "another visit to the shop is not a duplicate")
        #expect(try await duplicateOf(again) == first, "the rescan's page, date and total match the first receipt")
    }

    @Test func theReadingsBeforeTheirPages() {
        let first = ReviewSeed.record(text: Self.firstVisit, receiptID: 1, rules: []).result.draft
        let again = ReviewSeed.record(text: Self.rescan, receiptID: 2, rules: []).result.draft
        // So that the rescan is found by its page, not by the same merchant, date and total.
        #expect(first.merchant?.value != again.merchant?.value)
        #expect(first.total?.value == again.total?.value && first.total?.value == Decimal(string: "6.25"))
        #expect(first.date?.value == again.date?.value && first.date != nil)
        let unread = ReviewSeed.record(text: Self.unread, receiptID: 3, rules: []).result.draft
        #expect(unread.total == nil && unread.date == nil)
        let undated = ReviewSeed.record(text: Self.undatedRescan, receiptID: 4, rules: []).result.draft
        #expect(undated.date == nil && undated.total?.value == first.total?.value)
        #expect(undated.merchant?.value == first.merchant?.value)
        let photo = ReviewSeed.record(text: Self.otherPhoto, receiptID: 5, rules: []).result.draft
        #expect(photo.merchant?.value == "CORNERBAKERY" && first.merchant?.value == "CORNER BAKERY")
        #expect(photo.total?.value == first.total?.value && photo.date?.value == first.date?.value)
        #expect(!Self.otherTable.isSimilarPage(to: Self.layout))
        let undatedPhoto = ReviewSeed.record(text: Self.undatedPhoto, receiptID: 6, rules: []).result.draft
        #expect(undatedPhoto.date == nil && undatedPhoto.merchant?.value == first.merchant?.value)
        #expect(undatedPhoto.total?.value == first.total?.value)
        let undatedVisit = ReviewSeed.record(text: Self.undatedOtherVisit, receiptID: 7, rules: []).result.draft
        #expect(undatedVisit.date == nil && undatedVisit.merchant?.value == first.merchant?.value)
        #expect(undatedVisit.total?.value == Decimal(string: "5.90"))
    }

    @Test func onTheDatabase() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let store = PostgresReviewStore(database: connection)
            try await Self.play(
                commit: { text, fingerprint in
                    let id = try await ReviewSeed.storedReceipt(in: connection)
                    var record = try await ReviewSeed.record(text: text, receiptID: id, in: connection)
                    record.pageFingerprint = fingerprint
                    let committed = record
                    try await connection.transaction { connection in
                        _ = try ExpenseStore.commit(committed, jobID: 0, attempt: 1, in: connection)
                    }
                    return id
                },
                duplicateOf: { try await store.receipt($0)?.possibleDuplicateOf })
        }
    }

    @Test func onTheInMemoryFake() async throws {
        let store = InMemoryReviewStore()
        let image = ReceiptImage(
            format: .jpeg, bytes: [UInt8](try Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg"))))
        try await Self.play(
            commit: { text, fingerprint in
                let id = await store.add(fileName: "sroie_006.jpg", image: image)
                var record = ReviewSeed.record(text: text, receiptID: id, rules: [])
                record.pageFingerprint = fingerprint
                try await store.commit(record)
                return id
            },
            duplicateOf: { try await store.receipt($0)?.possibleDuplicateOf })
    }
}
