import ArgumentParser
import Foundation
import PipelineApp
import PipelineCore
import PostgresStore
import ReceiptBench

/// `pipeline-bench category-features`: each fixture's category evidence beside its hand-written category, one JSON
/// line per receipt, for `scripts/fit-categories` (docs/categories.md).
struct CategoryFeaturesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "category-features", abstract: "Dump category evidence and labels for fitting the categorizer.",
        discussion: """
            Reads each labeled fixture's OCR page from --ocr-cache (fill it with `pipeline bench --ocr-cache`), \
            extracts the draft, and writes one JSON line per receipt: the features the categorizer weighs \
            (CategoryEvidence), the category a seeded rule gives (if any), else the trade of the merchant's brand \
            (if any), the labeled merchant (to group receipts of one merchant in cross-validation) and the \
            hand-written category from --category-labels.

            Example: pipeline-bench category-features --fixtures ../shared/fixtures/train \
            --ocr-cache /work/ocr-cache/ppocr-swift/train --out train.jsonl
            """)

    @Option(help: ArgumentHelp("Folder of labeled images (searched recursively).", valueName: "dir"))
    var fixtures: String
    @Option(help: ArgumentHelp("OCR pages of those images (NAME.jpg.json per image).", valueName: "dir"))
    var ocrCache: String
    @Option(help: ArgumentHelp("The hand-written category labels (TSV).", valueName: "file"))
    var categoryLabels = "bench/category-labels.tsv"
    @Option(help: ArgumentHelp("Write the JSON lines here.", valueName: "file"))
    var out: String

    /// One receipt's line.
    struct Record: Encodable {
        var name: String
        var dataset: String
        var merchant: String?
        var category: ExpenseCategory?
        var ruleCategory: ExpenseCategory?
        /// The category of the merchant's brand, when no seeded rule decided (the categorizer's next source offline).
        var brandCategory: ExpenseCategory?
        var itemsCategory: ExpenseCategory
        var features: [String]
    }

    func run() async throws {
        try await runReportingErrors {
            let fixtureFolder = URL(fileURLWithPath: fixtures)
            let cache = OCRPageCache(directory: URL(fileURLWithPath: ocrCache), fixtureFolder: fixtureFolder)
            guard let text = FileManager.default.contents(atPath: categoryLabels) else {
                throw ValidationError("cannot read --category-labels \(categoryLabels); pass the labels TSV file")
            }
            let labels = try CategoryLabels(parsing: String(decoding: text, as: UTF8.self))
            let categorizer = Categorizer(rules: try SeededCategoryRules.rules, model: CategoryModel.unfitted)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            var output = Data()
            for fixture in try BenchFixture.load(from: fixtureFolder) {
                let page = try cache.page(for: fixture.image)
                let draft = ReceiptExtractor.extract(ReceiptPage(page))
                let categorization = categorizer.categorize(draft, receiptText: page.text)
                let record = Record(
                    name: fixture.name, dataset: fixture.label.source.dataset, merchant: fixture.label.merchant,
                    category: labels[fixture.name]?.expense,
                    ruleCategory: categorization.source == .rule ? categorization.expense : nil,
                    brandCategory: categorization.source == .brand ? categorization.expense : nil,
                    itemsCategory: Categorizer.expenseCategory(forItems: categorization.items),
                    features: CategoryEvidence.features(
                        merchant: draft.merchant?.value, pageText: page.text, itemCategories: categorization.items))
                output.append(try encoder.encode(record))
                output.append(0x0A)
            }
            try output.write(to: URL(fileURLWithPath: out))
        }
    }
}
