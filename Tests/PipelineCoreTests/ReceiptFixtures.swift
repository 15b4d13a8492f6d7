import Foundation
import PipelineCore
import ReceiptBench

/// The real receipts shipped under `Fixtures/receipts`: Tesseract's page and the label of each.
struct ReceiptFixture: Sendable, CustomStringConvertible {
    var name: String
    var page: OCRPage
    var label: FixtureLabel

    var description: String { name }

    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/receipts")

    /// Loads one fixture by name (`sroie_006`).
    static func named(_ name: String) throws -> ReceiptFixture {
        let page = try JSONDecoder().decode(
            OCRPage.self, from: Data(contentsOf: directory.appendingPathComponent("\(name).ocr.json")))
        let label = try FixtureLabel.decode(Data(contentsOf: directory.appendingPathComponent("\(name).json")))
        return ReceiptFixture(name: name, page: page, label: label)
    }

    /// Every shipped fixture, sorted by name.
    static func all() throws -> [ReceiptFixture] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".ocr.json") }.map { String($0.dropLast(".ocr.json".count)) }.sorted()
        return try names.map(named)
    }
}

/// A decimal from a literal string (money never goes through `Double`).
func money(_ text: String) -> Decimal {
    Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!
}
