/// Where one field of a committed expense came from: how sure the extractor was and the OCR lines it was read from;
/// a key field also has the calibrated probability the acceptance decision weighed (`trust`) and the probability it
/// needed (`trustThreshold`).
public struct FieldSource: Sendable, Equatable, Codable {
    /// The extractor's own confidence, 0–1; nil for a key field the extractor did not read (it has a trust only).
    public var confidence: Double?
    /// The OCR lines (0-based) the value was read from.
    public var lines: [Int]
    /// A key field's calibrated probability of being right, as `FieldTrust.storedProbability`.
    public var trust: Double?
    /// The probability the key field needed to be trusted.
    public var trustThreshold: Double?
    /// What trusted the key field whatever its probability, as `Vouch` describes it (`FieldTrust.vouchedBy`: a known
    /// layout, a known brand).
    public var vouchedBy: String?

    public init(
        confidence: Double?, lines: [Int], trust: Double? = nil, trustThreshold: Double? = nil,
        vouchedBy: String? = nil
    ) {
        self.confidence = confidence
        self.lines = lines
        self.trust = trust
        self.trustThreshold = trustThreshold
        self.vouchedBy = vouchedBy
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        confidence = try container.decodeIfPresent(Double.self, forKey: .confidence)
        lines = try container.decodeIfPresent([Int].self, forKey: .lines) ?? []
        trust = try container.decodeIfPresent(Double.self, forKey: .trust)
        trustThreshold = try container.decodeIfPresent(Double.self, forKey: .trustThreshold)
        vouchedBy = try container.decodeIfPresent(String.self, forKey: .vouchedBy)
    }

    /// How sure the page should say the machine was: the probability the decision weighed for a key field, the
    /// extractor's confidence for the others.
    public var sureness: Double? { trust ?? confidence }
}

/// The sources of an expense's fields, as a commit stores them (`expenses.field_sources`, JSON keyed by field:
/// `{"merchant": {"confidence", "lines", "trust", "trustThreshold", "vouchedBy"}, …}`); a field the extractor did not read has
/// none.
public struct FieldSources: Sendable, Equatable, Codable {
    public var merchant: FieldSource?
    public var date: FieldSource?
    public var currency: FieldSource?
    public var subtotal: FieldSource?
    public var tax: FieldSource?
    public var tip: FieldSource?
    public var fees: FieldSource?
    public var discounts: FieldSource?
    public var total: FieldSource?
    public var paymentMethod: FieldSource?

    /// The sources of a draft's fields, with each key field's trust as the acceptance decision weighed it.
    public init(_ draft: ExpenseDraft, trust: [FieldTrust]) {
        func source<T>(_ field: ExtractedField<T>?) -> FieldSource? {
            field.map { FieldSource(confidence: $0.confidence, lines: $0.sourceLines) }
        }
        merchant = source(draft.merchant)
        date = source(draft.date)
        currency = source(draft.currency)
        subtotal = source(draft.subtotal)
        tax = source(draft.tax)
        tip = source(draft.tip)
        fees = source(draft.fees)
        discounts = source(draft.discounts)
        total = source(draft.total)
        paymentMethod = source(draft.paymentMethod)
        for key in trust {
            var entry = self[key.field] ?? FieldSource(confidence: nil, lines: [])
            entry.trust = key.storedProbability
            entry.trustThreshold = key.threshold
            entry.vouchedBy = key.vouchedBy?.description
            self[key.field] = entry
        }
    }

    /// A key field's source.
    public subscript(field: KeyField) -> FieldSource? {
        get {
            switch field {
            case .merchant: merchant
            case .date: date
            case .total: total
            }
        }
        set {
            switch field {
            case .merchant: merchant = newValue
            case .date: date = newValue
            case .total: total = newValue
            }
        }
    }

    /// A correctable field's source; a category has none (it is chosen, not read).
    public subscript(field: CorrectableField) -> FieldSource? {
        switch field {
        case .merchant: merchant
        case .date: date
        case .currency: currency
        case .subtotal: subtotal
        case .discounts: discounts
        case .fees: fees
        case .tax: tax
        case .tip: tip
        case .total: total
        case .paymentMethod: paymentMethod
        case .category: nil
        }
    }
}
