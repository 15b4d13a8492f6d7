import Foundation

/// One accepted expense, as an accounting export needs it.
public struct JournalExpense: Sendable, Equatable {
    public let receiptID: Int64
    /// Where the image came from (`receipts.original_path`).
    public let file: String
    public let merchant: String?
    /// `YYYY-MM-DD`.
    public let date: String?
    /// ISO 4217 code.
    public let currency: String?
    public let total: Decimal?
    public let category: ExpenseCategory?
    public let paymentMethod: PaymentMethod?
    /// Each line item's category and total price.
    public let items: [JournalItem]

    public init(
        receiptID: Int64, file: String, merchant: String?, date: String?, currency: String?, total: Decimal?,
        category: ExpenseCategory?, paymentMethod: PaymentMethod?, items: [JournalItem]
    ) {
        self.receiptID = receiptID
        self.file = file
        self.merchant = merchant
        self.date = date
        self.currency = currency
        self.total = total
        self.category = category
        self.paymentMethod = paymentMethod
        self.items = items
    }
}

/// One line item of a `JournalExpense`: its category and total price.
public struct JournalItem: Sendable, Equatable, Decodable {
    public let category: ItemCategory
    public let amount: Decimal

    public init(category: ItemCategory, amount: Decimal) {
        self.category = category
        self.amount = amount
    }

    private enum CodingKeys: String, CodingKey {
        case category, amount
    }

    /// As `JournalStore` reads it: `{"category": "Food", "amount": "2.50"}`, the amount as exact decimal text (never
    /// through a binary floating-point number).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        category = try container.decode(ItemCategory.self, forKey: .category)
        let text = try container.decode(String.self, forKey: .amount)
        guard let amount = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
            throw DecodingError.dataCorruptedError(
                forKey: .amount, in: container, debugDescription: "'\(text)' is not a decimal amount")
        }
        self.amount = amount
    }
}
