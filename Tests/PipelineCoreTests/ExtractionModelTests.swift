import Foundation
import PipelineCore
import Testing

/// The committed fit against the closed feature sets: what `scripts/fit-extraction` weighed is exactly what the
/// extractors emit (`AutoAcceptanceTests.committedFitMatchesItsJSON` checks the generated Swift against the JSON).
@Suite struct ExtractionModelTests {
    /// `scripts/fit_extraction/model.json` in this checkout.
    private static func fittedJSON() throws -> [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("scripts/fit_extraction/model.json")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        return try #require(object as? [String: Any])
    }

    private static func names(_ weights: Any?) throws -> Set<String> {
        Set(try #require(weights as? [String: Double]).keys)
    }

    private static func names<Feature: ExtractionFeature>(_ feature: Feature.Type) -> Set<String> {
        Set(Feature.allCases.map(\.rawValue))
    }

    @Test func everyFittedNameIsAKnownFeatureAndEveryFeatureIsFitted() throws {
        let json = try Self.fittedJSON()
        // Each reader's three field models, beside its budget points and holds.
        let calibrations = try #require(json["trust"] as? [String: [String: Any]]).mapValues { models in
            models.compactMapValues { $0 as? [String: Any] }
        }

        #expect(try Self.names(json["total"]) == Self.names(TotalFeature.self))
        #expect(try Self.names(json["merchant"]) == Self.names(MerchantFeature.self))
        #expect(try Self.names(json["date"]) == Self.names(DateFeature.self))
        #expect(Set(calibrations.keys) == Set(PageReader.allCases.map(\.rawValue)))
        for (reader, trust) in calibrations {
            #expect(try Self.names(trust["merchant"]?["weights"]) == Self.names(MerchantTrustFeature.self), "\(reader)")
            #expect(try Self.names(trust["date"]?["weights"]) == Self.names(DateTrustFeature.self), "\(reader)")
            #expect(try Self.names(trust["total"]?["weights"]) == Self.names(TotalTrustFeature.self), "\(reader)")
        }
    }

    @Test func aModelNamingAnUnknownFeatureIsRejected() {
        let json = """
            {"total": {"totalLine": 1.0, "totalLien": 2.0}, "merchant": {}, "date": {},
             "trust": {"ppocr": \(Self.emptyModels), "tesseract": \(Self.emptyModels)}}
            """

        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ExtractionModel.self, from: Data(json.utf8)) }
    }

    @Test func aTrustModelNamingAnUnknownFeatureIsRejected() throws {
        let model = { (weights: String) in
            """
            {"total": {}, "merchant": {}, "date": {}, "trust": {"ppocr": \(Self.emptyModels), "tesseract":
             {"merchant": {"intercept": 0, "weights": \(weights), "threshold": 0.5}, "date": \(Self.emptyTrust),
              "total": \(Self.emptyTrust)}}}
            """
        }
        let known = try JSONDecoder().decode(
            ExtractionModel.self, from: Data(model(#"{"own.slogan": -1, "share": 2}"#).utf8))

        #expect(known.trust[.tesseract].merchant.weights == [.own(.slogan): -1, .shared(.share): 2])
        #expect(known.trust[.ppocr].merchant.weights.isEmpty)
        // A total's feature is not a merchant's, and a misspelled shared name is no feature.
        for wrong in [#"{"own.totalLine": 1}"#, #"{"shares": 1}"#, #"{"slogan": 1}"#] {
            #expect(throws: DecodingError.self) {
                try JSONDecoder().decode(ExtractionModel.self, from: Data(model(wrong).utf8))
            }
        }
    }

    static let emptyTrust = #"{"intercept": 0, "weights": {}, "threshold": 0.5}"#
    static let emptyModels = #"{"merchant": \#(emptyTrust), "date": \#(emptyTrust), "total": \#(emptyTrust)}"#

    /// Every phrase that explains a distrusted field names a trust feature some field has.
    @Test func everyPhraseNamesATrustFeature() {
        let names = Self.names(MerchantTrustFeature.self).union(Self.names(DateTrustFeature.self))
            .union(Self.names(TotalTrustFeature.self))
        #expect(Set(AutoAcceptance.phrases.keys).isSubset(of: names))
    }
}
