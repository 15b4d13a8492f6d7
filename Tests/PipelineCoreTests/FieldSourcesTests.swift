import Foundation
import PipelineCore
import Testing

/// `expenses.field_sources` as one Codable type: rows the earlier, dictionary-built writer stored still read, and
/// what a commit writes reads back the same.
@Suite struct FieldSourcesTests {
    /// As the writer before the type stored it: a key field the extractor did not read has its trust only.
    @Test func rowsStoredBeforeTheTypeStillRead() throws {
        let stored = """
            {"merchant":{"trust":0.62,"trustThreshold":0.97},\
            "paymentMethod":{"confidence":0.5,"lines":[9]},\
            "total":{"confidence":0.9,"lines":[7],"trust":0.998,"trustThreshold":0.98}}
            """
        let sources = try JSONDecoder().decode(FieldSources.self, from: Data(stored.utf8))

        #expect(
            sources[KeyField.merchant] == FieldSource(confidence: nil, lines: [], trust: 0.62, trustThreshold: 0.97))
        #expect(sources[KeyField.merchant]?.sureness == 0.62, "a key field shows the probability the decision weighed")
        #expect(sources[CorrectableField.paymentMethod]?.lines == [9])
        #expect(sources[CorrectableField.paymentMethod]?.sureness == 0.5)
        #expect(sources[KeyField.total]?.trustThreshold == 0.98)
        #expect(sources[KeyField.date] == nil && sources[CorrectableField.category] == nil)
    }

    @Test func aCommittedDraftsSourcesReadBackTheSame() throws {
        var draft = ExpenseDraft()
        draft.total = ExtractedField(value: Decimal(string: "7.95")!, confidence: 0.9, sourceLines: [7])
        let trust = [FieldTrust(field: .total, probability: 0.9871234567, threshold: 0.98, why: "")]
        let sources = FieldSources(draft, trust: trust)

        let read = try JSONDecoder().decode(FieldSources.self, from: JSONEncoder().encode(sources))

        #expect(read == sources)
        #expect(read[KeyField.total] == FieldSource(confidence: 0.9, lines: [7], trust: 0.987123, trustThreshold: 0.98))
        #expect(read.merchant == nil, "a field neither read nor weighed has no source")
    }

    /// What trusted a key field below its threshold (a known layout, a known brand) is stored beside its trust.
    @Test func aVouchReadsBackWithItsField() throws {
        var draft = ExpenseDraft()
        draft.merchant = ExtractedField(value: "Panda Express", confidence: 0.9, sourceLines: [0])
        let trust = [
            FieldTrust(
                field: .merchant, probability: 0.873, threshold: 0.926578, why: "",
                vouchedBy: .knownBrand)
        ]

        let read = try JSONDecoder().decode(
            FieldSources.self, from: JSONEncoder().encode(FieldSources(draft, trust: trust)))

        #expect(
            read[KeyField.merchant]?.vouchedBy
                == "a known brand, printed as the page's first line, of the receipt's country")
        #expect(read[KeyField.merchant]?.trust == 0.873)
    }
}
