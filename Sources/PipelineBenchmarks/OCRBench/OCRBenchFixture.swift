import Foundation
import PipelineApp
import PipelineCore
import ReceiptBench

/// One labeled receipt image of a fixture folder (`NAME.jpg` beside `NAME.json`).
struct OCRBenchFixture: Sendable {
    let image: URL
    let dataset: String
    let merchant: String?
    let date: (year: Int, month: Int, day: Int)?
    let total: Decimal?

    /// Every image under `folder` (recursively) that has a label file, sorted by path.
    static func load(from folder: URL) throws -> [OCRBenchFixture] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            throw ValidationFailure("cannot read the fixture folder \(folder.path)")
        }
        let images = walker.compactMap { $0 as? URL }
            .filter { ImageFormat.fileExtensions.contains($0.pathExtension.lowercased()) }
            .sorted { $0.path < $1.path }
        return try images.compactMap { image in
            let label = image.deletingPathExtension().appendingPathExtension("json")
            guard FileManager.default.fileExists(atPath: label.path) else { return nil }
            return try OCRBenchFixture(image: image, label: Data(contentsOf: label))
        }
    }

    private init(image: URL, label: Data) throws {
        self.image = image
        guard let object = try JSONSerialization.jsonObject(with: label) as? [String: Any] else {
            throw ValidationFailure("\(image.lastPathComponent): label is not a JSON object")
        }
        let source = object["source"] as? [String: Any]
        dataset = source?["dataset"] as? String ?? image.deletingLastPathComponent().lastPathComponent
        let labeled = Set(source?["labeledFields"] as? [String] ?? ["merchant", "date", "total"])
        func field(_ name: String) -> String? { labeled.contains(name) ? object[name] as? String : nil }
        merchant = field("merchant")
        total = field("total").flatMap { Decimal(string: $0, locale: Locale(identifier: "en_US_POSIX")) }
        date = field("date").flatMap { text in
            let parts = text.split(separator: "-").compactMap { Int($0) }
            return parts.count == 3 ? (parts[0], parts[1], parts[2]) : nil
        }
    }

    /// Which labeled key fields appear in `text`; nil for a field without a label.
    func presence(in text: String, headerText: String = "") -> (total: Bool?, date: Bool?, merchant: Bool?) {
        (
            total.map { LabelPresence.containsAmount($0, in: text) },
            date.map { LabelPresence.containsDate(year: $0.year, month: $0.month, day: $0.day, in: text) },
            merchant.map {
                LabelPresence.containsMerchant($0, in: headerText.isEmpty ? text : text + "\n" + headerText)
            }
        )
    }
}

/// A plain message for a bench input problem.
struct ValidationFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
