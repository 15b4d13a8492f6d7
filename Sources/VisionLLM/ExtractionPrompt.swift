import JSONRepair
import PipelineCore

/// The extraction prompt and the JSON schema the model must follow (items before the totals).
public enum ExtractionPrompt {
    /// Item categories (docs/behaviour.md, "Stages", categorize).
    public static let itemCategories = [
        "Food", "Beverage", "Electronics", "Household", "Personal Care", "Clothing", "Service", "Fuel", "Other",
    ]

    /// Expense categories (docs/behaviour.md, "Stages", categorize).
    public static let expenseCategories = [
        "Food & Dining", "Groceries", "Transportation", "Shopping", "Entertainment", "Bills & Utilities",
        "Healthcare", "Travel", "Education", "Business", "Other",
    ]

    /// Payment methods the model may name; ``DraftMerge`` maps them onto `PaymentMethod`.
    public static let paymentMethods = ["Cash", "Credit Card", "Debit Card", "Mobile Payment", "Voucher", "Other"]

    /// The instructions sent with every receipt.
    public static let instructions = """
        You extract expense data from a photo of a receipt. The OCR text of the same receipt follows as a hint; \
        it may contain misread characters, so trust the image where they disagree.
        Reply with one JSON object only, no prose and no code fences, with these keys in this order:
        - date: purchase date as YYYY-MM-DD, or null
        - merchant: the store or business name, or null
        - currency: ISO 4217 code such as USD, EUR, MYR, or null when no symbol, code or place says it
        - items: every purchased line: name, quantity (null if not printed), unitPrice (null if not printed), \
        totalPrice, category (one of \(itemCategories.joined(separator: ", "))), description (or null)
        - subtotal, discounts, fees, tip, taxAmount, itemsTotal: amounts as printed, or null when not printed
        - amount: the final total actually paid
        - category: one of \(expenseCategories.joined(separator: ", "))
        - description: a short description of the purchase, or null
        - paymentMethod: one of \(paymentMethods.joined(separator: ", ")), or null
        - confidence: your confidence from 0.0 to 1.0
        Write amounts as JSON numbers with a decimal point and no thousands separators or currency symbols. \
        Never guess: use null for anything not printed on the receipt.
        """

    /// The text block sent beside the image: instructions, the locale hint when there is one, then the OCR text.
    public static func userText(ocrText: String, hint: ReceiptLocaleHint? = nil) -> String {
        instructions + (hint.map { "\n" + $0.sentence } ?? "") + "\n\nOCR text:\n" + ocrText
    }

    /// The response schema for strict structured output: every property required, optional ones nullable,
    /// no additional properties, closed lists as enums. Items come before the totals, so the totals the model writes
    /// last can check them.
    public static let schema: JSONValue = object([
        ("date", nullable("string")),
        ("merchant", nullable("string")),
        ("currency", nullableEnum(CurrencyCodes.all)),
        (
            "items",
            .object([
                JSONMember("type", .string("array")),
                JSONMember(
                    "items",
                    object([
                        ("name", type("string")),
                        ("quantity", nullable("number")),
                        ("unitPrice", nullable("number")),
                        ("totalPrice", nullable("number")),
                        ("category", nullableEnum(itemCategories)),
                        ("description", nullable("string")),
                    ])),
            ])
        ),
        ("subtotal", nullable("number")),
        ("discounts", nullable("number")),
        ("fees", nullable("number")),
        ("tip", nullable("number")),
        ("taxAmount", nullable("number")),
        ("itemsTotal", nullable("number")),
        ("amount", nullable("number")),
        ("category", nullableEnum(expenseCategories)),
        ("description", nullable("string")),
        ("paymentMethod", nullableEnum(paymentMethods)),
        ("confidence", nullable("number")),
    ])

    private static func type(_ name: String) -> JSONValue { .object([JSONMember("type", .string(name))]) }

    private static func nullable(_ name: String) -> JSONValue {
        .object([JSONMember("type", .array([.string(name), .string("null")]))])
    }

    /// One of `values` or null (strict mode wants the null inside the enum too).
    private static func nullableEnum(_ values: [String]) -> JSONValue {
        .object([
            JSONMember("type", .array([.string("string"), .string("null")])),
            JSONMember("enum", .array(values.map(JSONValue.string) + [.null])),
        ])
    }

    private static func object(_ properties: [(String, JSONValue)]) -> JSONValue {
        .object([
            JSONMember("type", .string("object")),
            JSONMember("properties", .object(properties.map { JSONMember($0.0, $0.1) })),
            JSONMember("required", .array(properties.map { .string($0.0) })),
            JSONMember("additionalProperties", .bool(false)),
        ])
    }
}
