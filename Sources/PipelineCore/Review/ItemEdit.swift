import Foundation

/// A person's change to a receipt's line items. Positions are the 1-based numbers the page and `pipeline show`
/// print, all counted in the list as it stood before the edits.
public enum ItemEdit: Sendable, Equatable {
    /// Sets the parts given: nil keeps a part, `quantity: .some(nil)` clears the quantity.
    case change(position: Int, name: String?, quantity: Decimal??, amount: Decimal?)
    /// Deletes an item the machine invented.
    case remove(position: Int)
    /// Appends an item the machine missed.
    case add(name: String, quantity: Decimal?, amount: Decimal)
}

/// One line item as a person edits it, with how the machine read it (for the audit trail).
public struct EditableItem: Sendable, Equatable {
    public var name: String
    public var quantity: Decimal?
    public var unitPrice: Decimal?
    /// The line's total.
    public var amount: Decimal?
    public var category: ItemCategory
    /// The machine's reading of the item (`#2 Coffee = 2.75`), nil for an item a person added.
    public var machineReading: String?

    public init(
        name: String, quantity: Decimal?, unitPrice: Decimal?, amount: Decimal?, category: ItemCategory,
        machineReading: String?
    ) {
        self.name = name
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.amount = amount
        self.category = category
        self.machineReading = machineReading
    }

    /// An item as the machine read it at `position`: its machine reading is itself.
    public static func machine(
        position: Int, name: String, quantity: Decimal?, unitPrice: Decimal?, amount: Decimal?, category: ItemCategory
    ) -> EditableItem {
        var item = EditableItem(
            name: name, quantity: quantity, unitPrice: unitPrice, amount: amount, category: category,
            machineReading: nil)
        item.machineReading = item.reading(at: position)
        return item
    }

    /// The item in one line for the audit trail: `#2 Coffee × 2 = 5.50`.
    public func reading(at position: Int) -> String {
        "#\(position) \(name)" + (quantity.map { " × \($0)" } ?? "") + " = " + (amount.map(moneyText) ?? "–")
    }
}

/// What a batch of item edits did: the new list, and one audit entry per item changed, removed or added.
public struct ItemEditOutcome: Sendable, Equatable {
    /// One entry of the audit trail: the machine's reading (nil for an added item) and the person's (nil for a
    /// removed item).
    public struct Entry: Sendable, Equatable {
        public var machineValue: String?
        public var personValue: String?

        public init(machineValue: String?, personValue: String?) {
            self.machineValue = machineValue
            self.personValue = personValue
        }
    }

    public var items: [EditableItem]
    public var entries: [Entry]
}

extension ItemEdit {
    /// Applies edits to a receipt's items: changes and removals by position in `items`, additions at the end. A
    /// changed quantity or amount drops the machine's unit price (a person states the line total, not the unit).
    /// - Throws: `ReviewError.invalidValue` for a position the receipt does not have, or an item both changed and
    ///   removed.
    public static func apply(_ edits: [ItemEdit], to items: [EditableItem], receiptID: Int64) throws(ReviewError)
        -> ItemEditOutcome
    {
        var edited: [EditableItem?] = items
        var added: [EditableItem] = []
        func index(_ position: Int) throws(ReviewError) -> Int {
            guard items.indices.contains(position - 1) else {
                let count =
                    switch items.count {
                    case 0: "no items"
                    case 1: "only item 1"
                    default: "items 1–\(items.count)"
                    }
                throw ReviewError(
                    .invalidValue,
                    "receipt \(receiptID) has no item \(position) (it has \(count)); see pipeline show \(receiptID)")
            }
            return position - 1
        }
        for edit in edits {
            switch edit {
            case .change(let position, let name, let quantity, let amount):
                let index = try index(position)
                guard var item = edited[index] else {
                    throw ReviewError(
                        .invalidValue, "receipt \(receiptID) item \(position) cannot be both changed and removed")
                }
                let before = item
                if let name { item.name = name }
                if let quantity { item.quantity = quantity }
                if let amount { item.amount = amount }
                if item.quantity != before.quantity || item.amount != before.amount { item.unitPrice = nil }
                edited[index] = item
            case .remove(let position):
                let index = try index(position)
                guard edited[index] != nil else { continue }
                guard edited[index] == items[index] else {
                    throw ReviewError(
                        .invalidValue, "receipt \(receiptID) item \(position) cannot be both changed and removed")
                }
                edited[index] = nil
            case .add(let name, let quantity, let amount):
                added.append(
                    EditableItem(
                        name: name, quantity: quantity, unitPrice: nil, amount: amount, category: .other,
                        machineReading: nil))
            }
        }
        var outcome = ItemEditOutcome(items: [], entries: [])
        for (original, item) in zip(items, edited) {
            guard let item else {
                outcome.entries.append(.init(machineValue: original.machineReading, personValue: nil))
                continue
            }
            outcome.items.append(item)
            if item != original {
                outcome.entries.append(
                    .init(machineValue: item.machineReading, personValue: item.reading(at: outcome.items.count)))
            }
        }
        for item in added {
            outcome.items.append(item)
            outcome.entries.append(.init(machineValue: nil, personValue: item.reading(at: outcome.items.count)))
        }
        return outcome
    }
}

/// Checks what a person typed for a line item: the one place that decides what an item accepts. Messages name the
/// receipt, the item and the value.
public struct ItemInput: Sendable {
    public let receiptID: Int64
    /// The item's position, nil for a new item.
    public let position: Int?

    public init(receiptID: Int64, position: Int?) {
        self.receiptID = receiptID
        self.position = position
    }

    /// A name: not empty, at most 200 characters.
    public func name(_ raw: String) throws(ReviewError) -> String {
        let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty, value.count <= 200 else {
            throw invalid("name", String(value.prefix(40)), "1 to 200 characters")
        }
        return value
    }

    /// The line's total: an amount, negative for a discount line.
    public func amount(_ raw: String) throws(ReviewError) -> Decimal {
        let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let text = FieldValue.parseAmount(value), let amount = Decimal(string: text, locale: Self.posix) else {
            throw invalid("amount", value, FieldValue.amountForm)
        }
        return amount
    }

    /// A quantity above 0 and below a million, up to 3 decimals; nil for an empty value (no quantity).
    public func quantity(_ raw: String) throws(ReviewError) -> Decimal? {
        let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !value.isEmpty else { return nil }
        guard let text = FieldValue.parseAmount(value), let quantity = Decimal(string: text, locale: Self.posix),
            quantity > 0, quantity < 1_000_000
        else {
            throw invalid("quantity", value, "a number above 0 and below 1000000, such as 2 or 0.5")
        }
        return quantity
    }

    /// An item to add, typed as `NAME=AMOUNT` (`Milk 2L=3.99`; the last `=` splits).
    public func addition(_ text: String) throws(ReviewError) -> ItemEdit {
        guard let equals = text.lastIndex(of: "=") else {
            throw invalid("item", text, "NAME=AMOUNT such as \"Milk 2L=3.99\"")
        }
        return .add(
            name: try name(String(text[..<equals])), quantity: nil,
            amount: try amount(String(text[text.index(after: equals)...])))
    }

    private static let posix = Locale(identifier: "en_US_POSIX")

    private func invalid(_ part: String, _ value: String, _ form: String) -> ReviewError {
        let item = position.map { "item \($0)" } ?? "new item"
        return ReviewError(.invalidValue, "receipt \(receiptID) \(item): \(part) must be \(form) (got \"\(value)\")")
    }
}
