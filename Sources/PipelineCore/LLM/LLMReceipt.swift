import Foundation

/// What the vision LLM read from a receipt, with money as `Decimal`; every field optional.
///
/// Built from the repaired JSON by ``LLMReceiptReader``; merged field by field with the rules draft downstream.
public struct LLMReceipt: Sendable, Equatable {
    /// The purchase date as printed in ISO form (`YYYY-MM-DD`).
    public var date: String?
    public var merchant: String?
    /// The printed total.
    public var amount: Decimal?
    /// ISO 4217 code, upper case.
    public var currency: String?
    /// Expense category (docs/behaviour.md, "Stages", categorize).
    public var category: String?
    public var description: String?
    public var paymentMethod: String?
    public var taxAmount: Decimal?
    /// The model's own confidence, 0…1.
    public var confidence: Decimal?
    public var items: [Item] = []
    public var subtotal: Decimal?
    public var discounts: Decimal?
    public var fees: Decimal?
    public var tip: Decimal?
    public var itemsTotal: Decimal?

    public init() {}

    /// One line item.
    public struct Item: Sendable, Equatable {
        public var name: String
        public var quantity: Decimal?
        public var unitPrice: Decimal?
        public var totalPrice: Decimal?
        public var category: String?
        public var description: String?

        public init(name: String) { self.name = name }
    }

    /// Every amount with the path it came from (`amount`, `items[1].unitPrice`), quantities excluded.
    public var amounts: [(path: String, value: Decimal)] {
        var list: [(String, Decimal?)] = [
            ("amount", amount), ("taxAmount", taxAmount), ("subtotal", subtotal), ("discounts", discounts),
            ("fees", fees), ("tip", tip), ("itemsTotal", itemsTotal),
        ]
        for (index, item) in items.enumerated() {
            list.append(("items[\(index)].unitPrice", item.unitPrice))
            list.append(("items[\(index)].totalPrice", item.totalPrice))
        }
        return list.compactMap { path, value in value.map { (path, $0) } }
    }
}

/// A field of the model's reply that was refused or looked wrong.
public struct LLMFieldIssue: Sendable, Equatable, CustomStringConvertible {
    /// Path of the field, e.g. `items[0].totalPrice`.
    public let path: String
    public let problem: String

    public init(path: String, problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String { "\(path): \(problem)" }

    /// The receipt field the refused value was for, nil for one the expense does not keep (`category`, the whole
    /// reply).
    public var field: ReceiptField? {
        if path.hasPrefix("items") { return .items }
        switch path {
        case "merchant": return .merchant
        case "date": return .date
        case "currency": return .currency
        case "amount": return .total
        case "subtotal": return .subtotal
        case "taxAmount": return .tax
        case "tip": return .tip
        case "fees": return .fees
        case "discounts": return .discounts
        case "paymentMethod": return .paymentMethod
        default: return nil
        }
    }
}
