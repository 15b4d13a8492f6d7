import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// No text from outside kills a commit: random Unicode, NUL included, in every text field and finding a commit
/// stores goes through on the real database, stored with NUL replaced and a note saying where.
@Suite struct StorableTextCommitTests {
    /// A small deterministic generator, so a failing round can be replayed from its seed.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    /// Scalars from every plane and the edges PostgreSQL and JSON care about: NUL, controls, quotes, backslash,
    /// the replacement character, noncharacters, combining marks, right-to-left text and emoji.
    static let alphabet: [Unicode.Scalar] = [
        0, 1, 7, 8, 9, 10, 13, 27, 31, 34, 39, 92, 127, 0x80, 0x9F, 0xA0, 0x301, 0x5D0, 0x627, 0x200B, 0x200F, 0x2028,
        0x2029, 0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF, 0x1F600, 0x10FFFF, 0x41, 0x61, 0x30, 0x20,
    ].compactMap(Unicode.Scalar.init)

    static func randomText(_ generator: inout SeededGenerator) -> String {
        var scalars = String.UnicodeScalarView()
        for _ in 0..<Int.random(in: 1...24, using: &generator) {
            scalars.append(alphabet.randomElement(using: &generator)!)
        }
        return String(scalars)
    }

    @Test func randomUnicodeInEveryFieldAndFindingIsCommittedWithNULReplaced() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            var generator = SeededGenerator(state: 2024)
            for round in 0..<40 {
                let receipt = try await ReviewSeed.storedReceipt(in: connection)
                var record = try await ReviewSeed.record(
                    text: ReviewSeed.balancedText, receiptID: receipt, in: connection)
                record.result.draft.merchant?.value = Self.randomText(&generator)
                record.result.draft.currency?.value = Self.randomText(&generator)
                for index in record.result.draft.items.indices {
                    record.result.draft.items[index].name = Self.randomText(&generator)
                }
                record.extraFindings.append(
                    Finding(
                        .llmFieldRefused, field: .date, "the model's date \(Self.randomText(&generator)) is refused"))
                record.notes.append(Finding(.readingNote, Self.randomText(&generator)))
                record.ocrText += Self.randomText(&generator)
                record.timings = [
                    StageTiming(
                        stage: .extract, startedAt: Date(), duration: .milliseconds(3),
                        detail: Self.randomText(&generator))
                ]
                let merchant = try #require(record.result.draft.merchant?.value)
                let texts =
                    [merchant, record.ocrText, record.extraFindings.last!.message, record.notes.last!.message]
                    + [record.result.draft.currency?.value ?? "", record.timings.first?.detail ?? ""]
                    + record.result.draft.items.map(\.name)
                let holdsNUL = texts.contains(where: StorableText.isRefused)

                let fuzzed = record
                let committed = try await connection.transaction { connection in
                    try ExpenseStore.commit(fuzzed, jobID: 0, attempt: 1, in: connection)
                }

                let id = try #require(committed, "round \(round): committed")
                let row = try #require(
                    try await connection.query(
                        "SELECT merchant, findings::text AS findings, ocr_text FROM expenses WHERE id = $1", [id]
                    ).first)
                #expect(try row.string("merchant") == StorableText.storable(merchant), "round \(round)")
                #expect(try row.string("ocr_text") == StorableText.storable(record.ocrText), "round \(round)")
                let findings = try row.string("findings") ?? ""
                #expect(findings.contains("unstorable_text") == holdsNUL, "round \(round): \(findings)")
            }
        }
    }

    @Test func anLLMDateWithANULIsStoredAsAFinding() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let receipt = try await ReviewSeed.storedReceipt(in: connection)
            let record = try await ReviewSeed.record(
                text: ReviewSeed.balancedText, receiptID: receipt,
                extraFindings: [
                    Finding(.llmFieldRefused, field: .date, "the model's date \"2024-02-30\u{0}\" is no date")
                ],
                in: connection)

            let committed = try await connection.transaction { connection in
                try ExpenseStore.commit(record, jobID: 0, attempt: 1, in: connection)
            }

            let id = try #require(committed)
            let findings = try await connection.query(
                "SELECT findings::text AS findings FROM expenses WHERE id = $1", [id]
            ).first?.string("findings")
            #expect(findings?.contains("2024-02-30\u{FFFD}") == true, "\(findings ?? "")")
            #expect(findings?.contains("a finding held characters the database cannot store") == true)
        }
    }

    @Test func aStringParameterIsNeverCutShortAtANUL() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let stored = try await connection.query("SELECT $1::text AS value", ["scan\u{0}.jpg"]).first?.string(
                "value")
            #expect(stored == "scan\u{FFFD}.jpg")
        }
    }
}
