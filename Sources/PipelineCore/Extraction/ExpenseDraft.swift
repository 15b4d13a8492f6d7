import Foundation

/// One extracted value with how sure the extractor is and where on the page it came from.
public struct ExtractedField<Value: Sendable & Equatable & Codable>: Sendable, Equatable, Codable {
    public var value: Value
    /// 0–1.
    public var confidence: Double
    /// Indexes into `OCRPage.lines` the value was read from.
    public var sourceLines: [Int]

    public init(value: Value, confidence: Double, sourceLines: [Int]) {
        self.value = value
        self.confidence = confidence
        self.sourceLines = sourceLines
    }
}

/// A calendar date without a time zone, as printed on a receipt.
public struct ReceiptDate: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int
    /// Day and month were both ≤ 12 and the order came from a locale cue, not from the digits.
    public var isAmbiguous: Bool

    public init(year: Int, month: Int, day: Int, isAmbiguous: Bool = false) {
        self.year = year
        self.month = month
        self.day = day
        self.isAmbiguous = isAmbiguous
    }

    /// `YYYY-MM-DD`.
    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }
}

/// How the receipt was paid.
public enum PaymentMethod: String, Sendable, Equatable, Codable, CaseIterable {
    case cash, card, mobile, voucher
}

/// One purchased line.
public struct DraftLineItem: Sendable, Equatable, Codable {
    public var name: String
    public var quantity: Decimal?
    public var unitPrice: Decimal?
    public var totalPrice: Decimal
    public var confidence: Double
    public var sourceLines: [Int]

    public init(
        name: String, quantity: Decimal?, unitPrice: Decimal?, totalPrice: Decimal, confidence: Double,
        sourceLines: [Int]
    ) {
        self.name = name
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.totalPrice = totalPrice
        self.confidence = confidence
        self.sourceLines = sourceLines
    }
}

/// What extraction made of one receipt before reconciliation: every field optional, each with its evidence.
///
/// Rules and the LLM both produce this shape, so the two can be merged field by field.
public struct ExpenseDraft: Sendable, Equatable, Codable {
    public var merchant: ExtractedField<String>?
    /// The brand of the name-suggestion-index the merchant's lines read as (`Lidl` beside `Lidl Vertriebs GmbH`),
    /// nil when none; it decides the category when no rule or person does (`BrandCategory`).
    public var brand: ExtractedField<String>?
    public var date: ExtractedField<ReceiptDate>?
    /// ISO 4217 code.
    public var currency: ExtractedField<String>?
    public var subtotal: ExtractedField<Decimal>?
    public var tax: ExtractedField<Decimal>?
    public var tip: ExtractedField<Decimal>?
    /// Service charges, delivery and other fees added to the bill (positive).
    public var fees: ExtractedField<Decimal>?
    /// Discounts taken off the bill (positive).
    public var discounts: ExtractedField<Decimal>?
    /// Cash rounding printed on the receipt (`Rounding 0.02`, its sign often unclear): the summary may differ from
    /// the total by this much.
    public var rounding: ExtractedField<Decimal>?
    public var total: ExtractedField<Decimal>?
    /// No legible total line backs the total: it is the subtotal or the line items' sum taken as the total, so
    /// checks against those amounts cannot confirm it.
    public var isTotalInferred: Bool
    public var paymentMethod: ExtractedField<PaymentMethod>?
    /// What the customer handed over (cash or card amount), when printed.
    public var amountTendered: ExtractedField<Decimal>?
    /// Change given back, when printed.
    public var change: ExtractedField<Decimal>?
    public var items: [DraftLineItem]
    /// The VAT table's sums when its rows agree with their rates (European receipts), nil when none is read.
    public var vatSummary: VATSummary?
    /// The last subtotal, net amount or earlier total above the total plus every amount printed between them, whatever
    /// their lines are called (taxes, service charges, fees, tips, rounding): the page's own summary, nil when none is
    /// printed as one block.
    public var printedSummary: ExtractedField<Decimal>?
    /// Every amount printed on the page (for repair support and for checking amounts another source claims).
    public var amountsInText: [Decimal]
    /// Notes for a reviewer (ambiguous dates, ambiguous separators), committed with the expense's findings.
    public var notes: [Finding]
    /// How the rules' ranked candidates backed the fields; nil for drafts not made by `ReceiptExtractor`.
    public var evidence: ExtractionEvidence?

    public init(
        merchant: ExtractedField<String>? = nil, date: ExtractedField<ReceiptDate>? = nil,
        currency: ExtractedField<String>? = nil, subtotal: ExtractedField<Decimal>? = nil,
        tax: ExtractedField<Decimal>? = nil, tip: ExtractedField<Decimal>? = nil,
        fees: ExtractedField<Decimal>? = nil, discounts: ExtractedField<Decimal>? = nil,
        rounding: ExtractedField<Decimal>? = nil, total: ExtractedField<Decimal>? = nil, isTotalInferred: Bool = false,
        paymentMethod: ExtractedField<PaymentMethod>? = nil,
        amountTendered: ExtractedField<Decimal>? = nil, change: ExtractedField<Decimal>? = nil,
        items: [DraftLineItem] = [], amountsInText: [Decimal] = [], notes: [Finding] = []
    ) {
        self.merchant = merchant
        self.date = date
        self.currency = currency
        self.subtotal = subtotal
        self.tax = tax
        self.tip = tip
        self.fees = fees
        self.discounts = discounts
        self.rounding = rounding
        self.total = total
        self.isTotalInferred = isTotalInferred
        self.paymentMethod = paymentMethod
        self.amountTendered = amountTendered
        self.change = change
        self.items = items
        self.amountsInText = amountsInText
        self.notes = notes
    }
}
