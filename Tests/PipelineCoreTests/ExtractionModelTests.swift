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
        let acceptance = try #require(json["acceptance"] as? [String: Any])

        #expect(try Self.names(json["total"]) == Self.names(TotalFeature.self))
        #expect(try Self.names(json["merchant"]) == Self.names(MerchantFeature.self))
        #expect(try Self.names(json["date"]) == Self.names(DateFeature.self))
        #expect(try Self.names(acceptance["weights"]) == Self.names(AcceptanceFeature.self))
    }

    @Test func aModelNamingAnUnknownFeatureIsRejected() {
        let json = """
            {"total": {"totalLine": 1.0, "totalLien": 2.0}, "merchant": {}, "date": {},
             "acceptance": {"intercept": 0, "weights": {}, "threshold": 0.5}}
            """

        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ExtractionModel.self, from: Data(json.utf8)) }
    }

    @Test func acceptanceCarriesTheWinningTotalsSupportFeatures() {
        #expect(AcceptanceFeature.totalOCRConfidence.totalFeature == .ocrConfidence)
        #expect(AcceptanceFeature.totalProbability.totalFeature == nil)
        #expect(AcceptanceFeature.allCases.compactMap(\.totalFeature).count == 9)
    }
}
