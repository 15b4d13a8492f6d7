import Foundation
import PipelineCore
import PostgresStore
import TestSupport

/// Stores receipts for review tests: a real shipped image, and an expense read from given OCR text by the real
/// extraction rules, reconciler and categorizer, committed the way a worker commits it, to the database or to the
/// review stores' in-memory fake, at the trust budget `maxSilentPer100`.
public enum ReviewSeed {
    /// The trust budget seeds are committed at, as a worker configured with it commits: the strictest the fit offers
    /// (PP-OCR's lowest point, the seeds' reader), where a page whose items do not add up waits as `unbalanced`
    /// (`ReceiptPipelineTests` checks what each budget does with such a page).
    public static let maxSilentPer100 =
        ExtractionModel.fitted.trust[.ppocr].budgets.first?.maxSilentPer100 ?? AutoAcceptance.defaultMaxSilentPer100

    /// A receipt whose subtotal and tax (6.75) do not add up to its printed total (7.95): it needs review.
    public static let unbalancedText = """
        CORNER BAKERY
        123 Main Street
        Date: 2024-05-14
        Croissant 3.50
        Coffee 2.75
        SUBTOTAL 6.25
        TAX 0.50
        TOTAL 7.95
        """

    /// A receipt that balances (seed it with `machineAccepted: true` for an expense the machine accepted).
    public static let balancedText = """
        GREEN GROCER
        Date: 2024-05-20
        Milk 2.40
        Bread 3.10
        SUBTOTAL 5.50
        TAX 0.00
        TOTAL 5.50
        """

    /// A receipt whose one line item is its subtotal and whose subtotal and tax add up to its total, so every check
    /// passes, but whose total is printed without a word for it (a bare amount above the cash line), which leaves the
    /// total's trust model short of sure: only the models hold it back for review. (With the change printed, the
    /// payment and the summary would vouch for it, and so would two items adding up to the subtotal:
    /// `AutoAcceptance.arithmeticVouch`.)
    public static let heldBackText = """
        GREEN GROCER
        Date: 2024-05-20
        Fruit basket 5.00
        SUBTOTAL 5.00
        TAX 0.50
        5.50
        CASH 10.00
        """

    /// A receipt whose OCR text and merchant carry markup, as a hostile or unlucky scan could.
    public static let markupText = """
        <script>alert('owned')</script> & <b>Deli</b>
        Date: 2024-05-15
        Sandwich 4.00
        TOTAL 9.99
        """

    /// Commits one receipt and returns its id.
    /// - Parameters:
    ///   - image: a shipped receipt file name (its bytes are stored).
    ///   - committedAt: the commit time, to order the queue.
    ///   - extraFindings: findings beyond the reading's own, as the LLM stage adds them.
    @discardableResult
    public static func receipt(
        _ image: String = "sroie_006.jpg", text: String, committedAt: Date? = nil, machineAccepted: Bool = false,
        extraFindings: [Finding] = [], in connection: PostgresConnection
    ) async throws -> Int64 {
        let receiptID = try await storedReceipt(image, in: connection)
        try await commit(text: text, receiptID: receiptID, extraFindings: extraFindings, in: connection)
        // Acceptance is a calibrated probability that a few seeded lines need not reach: state it where a test
        // needs it.
        if machineAccepted {
            try await connection.query(
                "UPDATE expenses SET status = 'accepted', review_reasons = '{}' WHERE receipt_id = $1", [receiptID])
        }
        if let committedAt {
            try await connection.query(
                "UPDATE expenses SET committed_at = $1 WHERE receipt_id = $2", [committedAt, receiptID])
        }
        return receiptID
    }

    /// Commits one receipt to the review stores' in-memory fake and returns its id, as `receipt(…, in:
    /// PostgresConnection)` commits it to the database.
    /// - Parameter fileName: the name it was uploaded under; `image`'s when nil.
    @discardableResult
    public static func receipt(
        _ image: String = "sroie_006.jpg", fileName: String? = nil, text: String, committedAt: Date? = nil,
        machineAccepted: Bool = false, extraFindings: [Finding] = [], in store: InMemoryReviewStore
    ) async throws -> Int64 {
        let bytes = [UInt8](try Data(contentsOf: TestEnvironment.receipt(image)))
        let receiptID = await store.add(fileName: fileName ?? image, image: ReceiptImage(format: .jpeg, bytes: bytes))
        let rules = try await store.categoryRules().map(\.rule)
        try await store.commit(
            record(text: text, receiptID: receiptID, rules: rules, extraFindings: extraFindings),
            committedAt: committedAt)
        if machineAccepted { await store.setMachineDecision(receiptID, status: .accepted, reasons: []) }
        return receiptID
    }

    /// Stores a shipped receipt file, without an expense, and returns its id.
    public static func storedReceipt(_ image: String = "sroie_006.jpg", in connection: PostgresConnection)
        async throws -> Int64
    {
        let bytes = [UInt8](try Data(contentsOf: TestEnvironment.receipt(image)))
        // The same image may be seeded twice: a random identity (64 hex digits) keeps the receipts apart.
        let hash = (UUID().uuidString + UUID().uuidString).replacingOccurrences(of: "-", with: "").lowercased()
        let stored = try await connection.transaction { connection in
            try ReceiptStore.insert(
                [
                    NewReceipt(
                        sha256: hash, originalName: image, originalPath: "/inbox/" + image, format: .jpeg, bytes: bytes
                    )
                ],
                in: connection)
        }
        return try requireValue(stored[hash])
    }

    /// Reads `text` with the real extraction rules, reconciler and categorizer and commits the expense for a stored
    /// receipt the way a worker does (`ExpenseStore.commit`, in one transaction); a reprocess commits this way too.
    public static func commit(
        text: String, receiptID: Int64, extraFindings: [Finding] = [], in connection: PostgresConnection
    ) async throws {
        let committed = try await record(text: text, receiptID: receiptID, extraFindings: extraFindings, in: connection)
        try await connection.transaction { connection in
            _ = try ExpenseStore.commit(committed, jobID: 0, attempt: 1, in: connection)
        }
    }

    /// The expense record the real extraction rules, reconciler and categorizer make of `text` for a stored receipt,
    /// with the database's category rules.
    public static func record(
        text: String, receiptID: Int64, extraFindings: [Finding] = [], in connection: PostgresConnection
    ) async throws -> ExpenseRecord {
        record(
            text: text, receiptID: receiptID, rules: try await CategoryRuleStore.load(from: connection),
            extraFindings: extraFindings)
    }

    /// The record a worker makes of a page that reads `text` (one line per text line, boxed), by the real extraction
    /// rules, reconciler and categorizer with category rules `rules`.
    public static func record(text: String, receiptID: Int64, rules: [CategoryRule], extraFindings: [Finding] = [])
        -> ExpenseRecord
    {
        var page = OCRPage(text: text)
        for index in page.lines.indices {
            page.lines[index].box = BoundingBox(left: 20, top: 30 + index * 40, width: 500, height: 32)
        }
        page.width = 600
        page.height = 40 * page.lines.count + 60
        let draft = ReceiptExtractor.extract(page)
        var record = ExpenseRecord(
            receiptID: receiptID, result: Reconciler(tolerance: Decimal(string: "0.01")!).reconcile(draft),
            categorization: Categorizer(rules: rules).categorize(draft, receiptText: page.text),
            extractionSource: .rules, extraFindings: extraFindings, ocrText: page.text, ocrConfidence: 90,
            llmUsage: nil,
            claimedAt: Date(), timings: [])
        record.ocrLayout = OCRLayout(page: page)
        record.maxSilentPer100 = maxSilentPer100
        return record
    }
}

private func requireValue<T>(_ value: T?) throws -> T {
    guard let value else { throw CocoaError(.coderValueNotFound) }
    return value
}
