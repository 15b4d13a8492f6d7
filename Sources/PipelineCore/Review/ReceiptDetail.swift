import Foundation

/// One field of a receipt as the page shows it: its value, how sure the machine was, and where it read it.
public struct FieldReading: Sendable, Equatable {
    public var field: CorrectableField
    /// The stored value as text (money exact, dates `YYYY-MM-DD`), nil when nothing was read.
    public var value: String?
    /// 0–1, nil when unknown (a corrected value, or a field extraction does not score); for a key field, the
    /// probability the acceptance decision weighed.
    public var confidence: Double?
    /// For a key field, the probability it needed to be trusted (nil otherwise).
    public var trustThreshold: Double?
    /// For a key field, what trusted it whatever its probability (a known layout, a known brand; nil otherwise).
    public var vouchedBy: String?
    /// Indexes into the OCR text's lines the value was read from.
    public var evidenceLines: [Int]
    /// The latest correction of this field, when a person changed it.
    public var correction: Correction?

    public init(
        field: CorrectableField, value: String?, confidence: Double?, evidenceLines: [Int], correction: Correction?,
        trustThreshold: Double? = nil, vouchedBy: String? = nil
    ) {
        self.trustThreshold = trustThreshold
        self.vouchedBy = vouchedBy
        self.field = field
        self.value = value
        self.confidence = confidence
        self.evidenceLines = evidenceLines
        self.correction = correction
    }
}

/// One line item as stored.
public struct ReviewItem: Sendable, Equatable {
    public var position: Int
    public var name: String
    public var quantity: String?
    public var unitPrice: String?
    public var totalPrice: String?
    public var category: ItemCategory

    public init(
        position: Int, name: String, quantity: String?, unitPrice: String?, totalPrice: String?, category: ItemCategory
    ) {
        self.position = position
        self.name = name
        self.quantity = quantity
        self.unitPrice = unitPrice
        self.totalPrice = totalPrice
        self.category = category
    }
}

/// Everything the receipt page shows about one receipt.
public struct ReceiptDetail: Sendable, Equatable {
    public var receiptID: Int64
    public var fileName: String
    public var imageFormat: ImageFormat
    public var status: ExpenseStatus
    /// `balanced`, `repaired`, `unbalanced` or `incomplete`.
    public var validationOutcome: ReconciliationOutcome
    public var extractionSource: ExtractionSource
    public var fields: [FieldReading]
    /// What the machine found, notes included.
    public var findings: [Finding]
    public var reasons: [ReviewReason]
    public var dateIsAmbiguous: Bool
    /// The receipt id of the earlier expense this one may duplicate (`ReviewReason.duplicateGrounds`).
    public var possibleDuplicateOf: Int64?
    public var items: [ReviewItem]
    /// The OCR text, one entry per line (the indexes `FieldReading.evidenceLines` use).
    public var ocrLines: [String]
    /// Where each OCR line sits on the image, when the worker stored it.
    public var layout: OCRLayout?
    /// The whole audit trail, oldest first.
    public var corrections: [Correction]

    public init(
        receiptID: Int64, fileName: String, imageFormat: ImageFormat, status: ExpenseStatus,
        validationOutcome: ReconciliationOutcome,
        extractionSource: ExtractionSource, fields: [FieldReading], findings: [Finding], reasons: [ReviewReason],
        dateIsAmbiguous: Bool, possibleDuplicateOf: Int64?, items: [ReviewItem], ocrLines: [String],
        layout: OCRLayout?, corrections: [Correction]
    ) {
        self.receiptID = receiptID
        self.fileName = fileName
        self.imageFormat = imageFormat
        self.status = status
        self.validationOutcome = validationOutcome
        self.extractionSource = extractionSource
        self.fields = fields
        self.findings = findings
        self.reasons = reasons
        self.dateIsAmbiguous = dateIsAmbiguous
        self.possibleDuplicateOf = possibleDuplicateOf
        self.items = items
        self.ocrLines = ocrLines
        self.layout = layout
        self.corrections = corrections
    }

    /// The reading of one field.
    public func reading(_ field: CorrectableField) -> FieldReading? {
        fields.first { $0.field == field }
    }
}

/// A stored receipt image, served by receipt id only.
public struct ReceiptImage: Sendable, Equatable {
    public var format: ImageFormat
    public var bytes: [UInt8]

    public init(format: ImageFormat, bytes: [UInt8]) {
        self.format = format
        self.bytes = bytes
    }

    /// The HTTP content type of the format.
    public var contentType: String {
        switch format {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .tiff: "image/tiff"
        case .webp: "image/webp"
        case .bmp: "image/bmp"
        case .gif: "image/gif"
        case .heic: "image/heic"
        case .avif: "image/avif"
        case .pdf: "application/pdf"
        }
    }
}
