import Foundation
import PipelineCore
import ReceiptBench
import Testing

/// The extractor on the PP-OCR reading of generated receipts in seven languages (Fixtures/synthetic: invented shops,
/// not real receipts), which the committed fit did not see.
@Suite struct SyntheticReceiptTests {
    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/synthetic")

    static let names: [String] = {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return files.filter { $0.hasSuffix(".ocr.json") }.map { String($0.dropLast(".ocr.json".count)) }.sorted()
    }()

    @Test func everyLanguageIsShipped() {
        let languages = Set(Self.names.map { $0.split(separator: "_")[1] })
        #expect(languages == ["de", "es", "fr", "it", "nl", "pl", "pt"], "\(languages.sorted())")
    }

    @Test(arguments: names)
    func readsTotalDateMerchantAndCurrency(_ name: String) throws {
        let page = try JSONDecoder().decode(
            OCRPage.self, from: Data(contentsOf: Self.directory.appendingPathComponent("\(name).ocr.json")))
        let label = try FixtureLabel.decode(Data(contentsOf: Self.directory.appendingPathComponent("\(name).json")))
        let draft = ReceiptExtractor.extract(page)

        #expect(draft.total.map { moneyText($0.value) } == label.total, "total")
        #expect(draft.date.map { "\($0.value)" } == label.date, "date")
        #expect(draft.date?.value.isAmbiguous != true, "the page's country decides the order of day and month")
        #expect(draft.currency?.value == label.currency, "currency")
        let merchant = draft.merchant?.value ?? ""
        #expect(
            TextSimilarity.similarity(merchant, label.merchant ?? "") >= ReceiptScorer.merchantThreshold,
            "merchant: got '\(merchant)', expected '\(label.merchant ?? "")'")
    }
}
