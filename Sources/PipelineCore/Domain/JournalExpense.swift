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
    /// The receipt's category (`ExpenseCategory` name).
    public let category: String?
    /// `PaymentMethod` name.
    public let paymentMethod: String?
    /// Each line item's category and total price.
    public let items: [(category: String, amount: Decimal)]

    public init(
        receiptID: Int64, file: String, merchant: String?, date: String?, currency: String?, total: Decimal?,
        category: String?, paymentMethod: String?, items: [(category: String, amount: Decimal)]
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

    public static func == (left: JournalExpense, right: JournalExpense) -> Bool {
        left.receiptID == right.receiptID && left.file == right.file && left.merchant == right.merchant
            && left.date == right.date && left.currency == right.currency && left.total == right.total
            && left.category == right.category && left.paymentMethod == right.paymentMethod
            && left.items.map(\.category) == right.items.map(\.category)
            && left.items.map(\.amount) == right.items.map(\.amount)
    }
}
