import Foundation

extension ReceiptDetail {
    /// Whether a person changed something the arithmetic checks read: an amount or the line items.
    public var hasCorrectedAmounts: Bool {
        corrections.contains {
            $0.field.changesAmounts
        }
    }

    /// The arithmetic checks over the values as they stand now, a person's corrections and item edits included, by
    /// the pipeline's reconciler: what the page and `pipeline correct` show once amounts were corrected.
    public func recheck(with reconciler: Reconciler) -> ReconciliationResult {
        let posix = Locale(identifier: "en_US_POSIX")
        func amount(_ field: CorrectableField) -> ExtractedField<Decimal>? {
            guard let reading = reading(field),
                let value = reading.value.flatMap({ Decimal(string: $0, locale: posix) })
            else { return nil }
            return ExtractedField(value: value, confidence: 1, sourceLines: reading.evidenceLines)
        }
        let draftItems = items.map { item in
            DraftLineItem(
                name: item.name, quantity: item.quantity.flatMap { Decimal(string: $0, locale: posix) },
                unitPrice: item.unitPrice.flatMap { Decimal(string: $0, locale: posix) },
                totalPrice: item.totalPrice.flatMap { Decimal(string: $0, locale: posix) } ?? 0, confidence: 1,
                sourceLines: [])
        }
        let draft = ExpenseDraft(
            subtotal: amount(.subtotal), tax: amount(.tax), tip: amount(.tip), fees: amount(.fees),
            discounts: amount(.discounts), total: amount(.total), items: draftItems)
        return reconciler.reconcile(draft)
    }
}
