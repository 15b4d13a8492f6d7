import Foundation
import PipelineCore

/// The ground truth of one fixture image (`NAME.json` beside `NAME.jpg`, docs/behaviour.md).
public struct FixtureLabel: Sendable, Equatable, Codable {
    public struct Item: Sendable, Equatable, Codable {
        public var name: String
        public var quantity: Decimal?
        public var unitPrice: String?
        public var totalPrice: String

        public init(name: String, quantity: Decimal?, unitPrice: String?, totalPrice: String) {
            self.name = name
            self.quantity = quantity
            self.unitPrice = unitPrice
            self.totalPrice = totalPrice
        }
    }

    public struct Source: Sendable, Equatable, Codable {
        public var dataset: String
        public var labeledFields: [String]
        public var inferredFields: [String]?

        public init(dataset: String, labeledFields: [String], inferredFields: [String]? = nil) {
            self.dataset = dataset
            self.labeledFields = labeledFields
            self.inferredFields = inferredFields
        }
    }

    public var merchant: String?
    /// `YYYY-MM-DD`.
    public var date: String?
    public var currency: String?
    /// Decimal strings with `.`, kept as text so no value passes through `Double`.
    public var total: String?
    public var subtotal: String?
    public var tax: String?
    public var tip: String?
    public var items: [Item]
    public var source: Source
    /// The expense category: absent from the real fixtures' labels (theirs live in `bench/category-labels.tsv`),
    /// present in the generated receipts' (`scripts/synth_receipts`), written into the bench's predictions.
    public var category: String?

    public init(
        merchant: String?, date: String?, currency: String?, total: String?, subtotal: String?, tax: String?,
        tip: String?, items: [Item], source: Source
    ) {
        self.merchant = merchant
        self.date = date
        self.currency = currency
        self.total = total
        self.subtotal = subtotal
        self.tax = tax
        self.tip = tip
        self.items = items
        self.source = source
    }

    /// Decodes a label file's bytes.
    /// - Throws: `DecodingError` when the JSON does not have the fixture schema.
    public static func decode(_ data: Data) throws -> FixtureLabel {
        try JSONDecoder().decode(FixtureLabel.self, from: data)
    }

    /// The prediction of a draft in this same schema, so external scorers can check the numbers.
    public init(prediction draft: ExpenseDraft, dataset: String) {
        self.init(
            merchant: draft.merchant?.value, date: draft.date.map { "\($0.value)" }, currency: draft.currency?.value,
            total: draft.total.map { moneyText($0.value) }, subtotal: draft.subtotal.map { moneyText($0.value) },
            tax: draft.tax.map { moneyText($0.value) }, tip: draft.tip.map { moneyText($0.value) },
            items: draft.items.map {
                Item(
                    name: $0.name, quantity: $0.quantity, unitPrice: $0.unitPrice.map(moneyText),
                    totalPrice: moneyText($0.totalPrice))
            },
            source: Source(dataset: dataset, labeledFields: []))
    }
}
