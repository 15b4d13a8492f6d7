import PipelineCore
import Testing

@testable import PipelineApp

/// `pipeline show`'s line of key-field probabilities: a field below its threshold is "not trusted" unless something
/// vouched for it, and then it says what.
@Suite struct FieldTrustReportTests {
    @Test func aVouchedFieldBelowItsThresholdSaysWhatTrustedIt() {
        var sources = FieldSources(ExpenseDraft(), trust: [])
        sources.merchant = FieldSource(
            confidence: 0.9, lines: [0], trust: 0.873, trustThreshold: 0.926578,
            vouchedBy: Vouch.knownBrand.description)
        sources.date = FieldSource(confidence: 0.9, lines: [5], trust: 0.62, trustThreshold: 0.87594)
        sources.total = FieldSource(confidence: 0.9, lines: [9], trust: 0.9946, trustThreshold: 0.955828)

        #expect(
            fieldTrust(sources)
                == "right with probability: merchant 87.3% (needs 92.7%; trusted: \(Vouch.knownBrand)),"
                + " date 62.0% (needs 87.6%, not trusted), total 99.5%")
    }
}
