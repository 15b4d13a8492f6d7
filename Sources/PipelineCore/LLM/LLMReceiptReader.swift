import Foundation
import JSONRepair

/// Reads an ``LLMReceipt`` from repaired JSON, refusing (and reporting) fields of the wrong type or form.
public enum LLMReceiptReader {
    /// Reads the receipt fields of `value`.
    /// - Parameter notation: how amounts written as text separate decimals; by default the usual notation of the
    ///   reply's own `currency`, so `"12,34"` is refused unless the currency settles it.
    /// - Returns: the receipt (nil when `value` is not an object) and the fields refused.
    public static func read(_ value: JSONValue, notation: DecimalNotation? = nil) -> (LLMReceipt?, [LLMFieldIssue]) {
        guard value.members != nil else {
            return (nil, [LLMFieldIssue(path: "$", problem: "the reply is not a JSON object")])
        }
        var reader = FieldReader(object: value, prefix: "")
        var receipt = LLMReceipt()
        receipt.currency = reader.currency("currency")
        reader.notation = notation ?? DecimalNotation.usual(for: receipt.currency)
        receipt.date = reader.date("date")
        receipt.merchant = reader.text("merchant")
        receipt.amount = reader.money("amount")
        receipt.category = reader.text("category")
        receipt.description = reader.text("description")
        receipt.paymentMethod = reader.text("paymentMethod")
        receipt.taxAmount = reader.money("taxAmount")
        receipt.confidence = reader.money("confidence").flatMap { (0...1).contains($0) ? $0 : nil }
        receipt.subtotal = reader.money("subtotal")
        receipt.discounts = reader.money("discounts")
        receipt.fees = reader.money("fees")
        receipt.tip = reader.money("tip")
        receipt.itemsTotal = reader.money("itemsTotal")
        var issues = reader.issues
        switch value["items"] {
        case .array(let elements)?:
            for (index, element) in elements.enumerated() {
                var itemReader = FieldReader(object: element, prefix: "items[\(index)].", notation: reader.notation)
                if let name = itemReader.text("name") {
                    var item = LLMReceipt.Item(name: name)
                    item.quantity = itemReader.money("quantity")
                    item.unitPrice = itemReader.money("unitPrice")
                    item.totalPrice = itemReader.money("totalPrice")
                    item.category = itemReader.text("category")
                    item.description = itemReader.text("description")
                    receipt.items.append(item)
                } else {
                    itemReader.refuse("name", "an item without a name was left out")
                }
                issues += itemReader.issues
            }
        case nil, .null?: break
        case let other?:
            issues.append(LLMFieldIssue(path: "items", problem: "expected a list, got \(other.jsonText())"))
        }
        return (receipt, issues)
    }
}

/// Reads typed fields of one JSON object, collecting what it refuses.
private struct FieldReader {
    let object: JSONValue
    let prefix: String
    var notation: DecimalNotation = .unknown
    var issues: [LLMFieldIssue] = []

    init(object: JSONValue, prefix: String, notation: DecimalNotation = .unknown) {
        self.object = object
        self.prefix = prefix
        self.notation = notation
        if object.members == nil {
            issues.append(LLMFieldIssue(path: String(prefix.dropLast()), problem: "expected an object"))
        }
    }

    mutating func refuse(_ key: String, _ problem: String) {
        issues.append(LLMFieldIssue(path: prefix + key, problem: problem))
    }

    mutating func text(_ key: String) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let text)?:
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        case let other?:
            refuse(key, "expected text, got \(other.jsonText())")
            return nil
        }
    }

    mutating func money(_ key: String) -> Decimal? {
        guard let value = object[key], let result = MoneyText.amount(of: value, notation: notation) else { return nil }
        switch result {
        case .success(let amount): return amount
        case .failure(let refusal):
            refuse(key, refusal.description)
            return nil
        }
    }

    mutating func date(_ key: String) -> String? {
        guard let text = text(key) else { return nil }
        guard let date = ReceiptDate(iso: text) else {
            refuse(key, "'\(text)' is not a date that exists, in YYYY-MM-DD form")
            return nil
        }
        return date.description
    }

    mutating func currency(_ key: String) -> String? {
        guard let text = text(key) else { return nil }
        guard CurrencyCodes.contains(text) else {
            refuse(key, "'\(text)' is not an ISO 4217 currency code")
            return nil
        }
        return text.uppercased()
    }
}
