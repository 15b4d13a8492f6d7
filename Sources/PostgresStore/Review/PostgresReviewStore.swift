import Foundation
import PipelineCore

/// The review port over PostgreSQL: the queue, receipts, corrections (audit trail in `corrections`, kept on every
/// later write by `KeptCorrections`), decisions, category rules and spending reports.
///
/// Each call runs on a connection its `database` lends: one command's connection, or a server's pool, which
/// serves several requests at once and reconnects after a database restart.
public struct PostgresReviewStore: ReviewStore {
    let database: any PostgresSessions

    public init(database: any PostgresSessions) {
        self.database = database
    }

    /// Runs one statement on a connection of its own.
    func statement(_ sql: String, _ parameters: [any PostgresEncodable] = []) async throws -> PostgresRows {
        try await database.withConnection { try await $0.query(sql, parameters) }
    }

    /// Runs `body` in a transaction on a connection of its own.
    func transaction<T: Sendable>(_ body: @escaping @Sendable (isolated PostgresConnection) throws -> T)
        async throws -> T
    {
        try await database.withConnection { try await $0.transaction(body) }
    }

    // MARK: - Queue

    public func queue(_ query: ReviewQueueQuery) async throws -> ReviewQueue {
        let rows = try await statement(
            """
            SELECT e.receipt_id, r.original_name, e.merchant, e.expense_date::text AS date,
                   money_text(e.total) AS total,
                   e.currency, array_to_string(e.review_reasons, ',') AS reasons, e.committed_at
            FROM expenses e JOIN receipts r ON r.id = e.receipt_id
            WHERE e.status = 'needs_review'
              AND ($1::text IS NULL OR $1 = ANY (e.review_reasons))
            ORDER BY e.committed_at, e.receipt_id LIMIT $2 OFFSET $3
            """, [query.reason?.rawValue, query.limit, query.offset])
        let queueRows = try rows.map { row in
            ReviewQueueRow(
                receiptID: try row.requiredID("receipt_id"), fileName: try row.requiredString("original_name"),
                merchant: try row.string("merchant"), date: try row.string("date"), total: try row.string("total"),
                currency: try row.string("currency"), reasons: try Self.reasons(row),
                committedAt: try row.requiredDate("committed_at"))
        }
        var counts: [ReviewReason: Int] = [:]
        for row in try await statement(
            """
            SELECT reason, count(*) AS n
            FROM expenses e, unnest(e.review_reasons) AS reason
            WHERE e.status = 'needs_review' GROUP BY reason
            """)
        {
            counts[try row.requiredValue("reason", as: ReviewReason.self)] = try row.requiredInt("n")
        }
        let total =
            try await statement("SELECT count(*) AS n FROM expenses WHERE status = 'needs_review'")
            .first?.requiredInt("n") ?? 0
        return ReviewQueue(rows: queueRows, total: total, counts: counts)
    }

    public func nextInQueue(after receiptID: Int64) async throws -> Int64? {
        let rows = try await statement(
            """
            WITH current AS (SELECT committed_at, receipt_id FROM expenses WHERE receipt_id = $1)
            SELECT e.receipt_id FROM expenses e
            WHERE e.status = 'needs_review' AND e.receipt_id <> $1
            ORDER BY coalesce((e.committed_at, e.receipt_id) < (SELECT committed_at, receipt_id FROM current), false),
                     e.committed_at, e.receipt_id
            LIMIT 1
            """, [receiptID])
        return try rows.first?.int("receipt_id").map(Int64.init)
    }

    // MARK: - One receipt

    public func receipt(_ receiptID: Int64) async throws -> ReceiptDetail? {
        let rows = try await statement(
            """
            SELECT r.original_name, r.format, e.id AS expense_id, e.status, e.validation_outcome, e.extraction_source,
                   e.merchant, e.expense_date::text AS date, e.currency, money_text(e.subtotal) AS subtotal,
                   money_text(e.discounts) AS discounts, money_text(e.fees) AS fees, money_text(e.tax) AS tax,
                   money_text(e.tip) AS tip, money_text(e.total) AS total, e.category, e.payment_method,
                   e.findings::text AS findings, e.field_sources::text AS field_sources, e.ocr_text,
                   e.ocr_layout::text AS ocr_layout, e.date_is_ambiguous,
                   array_to_string(e.review_reasons, ',') AS reasons,
                   (SELECT d.receipt_id FROM expenses d WHERE d.id = e.possible_duplicate_of) AS duplicate_of
            FROM receipts r LEFT JOIN expenses e ON e.receipt_id = r.id WHERE r.id = $1
            """, [receiptID])
        guard let row = rows.first else { return nil }
        guard let expenseID = try row.int("expense_id") else {
            throw ReviewError.noExpense(receiptID)
        }
        let corrections = try await corrections(of: receiptID)
        let sources = try row.json("field_sources", as: FieldSources.self)
        let fields = try CorrectableField.allCases.map { field in
            let source = sources?[field]
            let correction = corrections.last { $0.field == .field(field) }
            return FieldReading(
                field: field, value: try row.string(Self.column(field)),
                confidence: correction == nil ? source?.sureness : nil,
                evidenceLines: correction == nil ? source?.lines ?? [] : [], correction: correction,
                trustThreshold: correction == nil ? source?.trustThreshold : nil,
                vouchedBy: correction == nil ? source?.vouchedBy : nil)
        }
        let items = try await statement(Self.itemsQuery, [expenseID]).map(Self.item)
        let ocrText = try row.string("ocr_text") ?? ""
        return ReceiptDetail(
            receiptID: receiptID, fileName: try row.requiredString("original_name"),
            imageFormat: try row.requiredValue("format", as: ImageFormat.self),
            status: try row.requiredValue("status", as: ExpenseStatus.self),
            validationOutcome: try row.requiredValue("validation_outcome", as: ReconciliationOutcome.self),
            extractionSource: try row.requiredValue("extraction_source", as: ExtractionSource.self), fields: fields,
            findings: try row.json("findings", as: [Finding].self) ?? [], reasons: try Self.reasons(row),
            dateIsAmbiguous: try row.requiredBool("date_is_ambiguous"),
            possibleDuplicateOf: try row.int("duplicate_of").map(Int64.init), items: items,
            ocrLines: ocrText.isEmpty ? [] : ocrText.components(separatedBy: "\n"),
            layout: try row.json("ocr_layout", as: OCRLayout.self),
            corrections: corrections)
    }

    public func image(_ receiptID: Int64) async throws -> ReceiptImage? {
        // A PDF, HEIC or TIFF is shown as the pipeline rendered it (`pipeline show` names the original file).
        let rows = try await statement(
            """
            SELECT CASE WHEN rendered_page IS NULL THEN format ELSE 'jpeg' END AS format,
                   coalesce(rendered_page, image) AS image
            FROM receipts WHERE id = $1
            """, [receiptID])
        guard let row = rows.first else { return nil }
        return ReceiptImage(
            format: try row.requiredValue("format", as: ImageFormat.self), bytes: try row.requiredBytes("image"))
    }

    func corrections(of receiptID: Int64) async throws -> [Correction] {
        try await statement(
            """
            SELECT field, machine_value, person_value, corrected_by, corrected_at FROM corrections
            WHERE receipt_id = $1 ORDER BY id
            """, [receiptID]
        ).map(Self.correction)
    }

    // MARK: - Corrections and decisions

    @discardableResult
    public func review(
        _ receiptID: Int64, corrections: [CorrectableField: String?], items: [ItemEdit], decision: ReviewDecision?,
        by person: String
    ) async throws -> ReviewOutcome {
        try await transaction { connection in
            try Self.review(receiptID, corrections, items, decision, person, in: connection)
        }
    }

    private static func review(
        _ receiptID: Int64, _ changes: [CorrectableField: String?], _ itemEdits: [ItemEdit],
        _ decision: ReviewDecision?, _ person: String, in connection: isolated PostgresConnection
    ) throws -> ReviewOutcome {
        let columns = CorrectableField.allCases.map { "\(textExpression($0)) AS \(column($0))" }.joined(separator: ", ")
        guard
            let current = try connection.query(
                """
                SELECT \(columns), status, ocr_text, field_sources::text AS field_sources
                FROM expenses WHERE receipt_id = $1 FOR UPDATE
                """, [receiptID]
            ).first
        else {
            let exists = try connection.query("SELECT 1 FROM receipts WHERE id = $1", [receiptID]).count > 0
            guard exists else {
                throw ReviewError.unknownReceipt(receiptID)
            }
            throw ReviewError.noExpense(receiptID)
        }
        var recorded: [Correction] = []
        func insert(_ field: CorrectionField, machineValue: String?, personValue: String?) throws {
            let row = try connection.query(
                """
                INSERT INTO corrections (receipt_id, field, machine_value, person_value, corrected_by)
                VALUES ($1, $2, $3, $4, $5)
                RETURNING field, machine_value, person_value, corrected_by, corrected_at
                """, [receiptID, field.rawValue, machineValue, personValue, person])
            if let inserted = row.first { recorded.append(try correction(inserted)) }
        }
        func record(_ field: CorrectionField, old: String?, new: String?) throws {
            let first = try connection.query(
                "SELECT machine_value FROM corrections WHERE receipt_id = $1 AND field = $2 ORDER BY id LIMIT 1",
                [receiptID, field.rawValue]
            ).first
            try insert(field, machineValue: try first.map { try $0.string("machine_value") } ?? old, personValue: new)
        }
        for field in CorrectableField.allCases {
            guard let change = changes[field] else { continue }
            let old = try current.string(column(field))
            guard !field.isUnchanged(from: old, to: change) else { continue }
            try record(.field(field), old: old, new: change)
        }
        if !itemEdits.isEmpty {
            let outcome = try ItemEdit.apply(
                itemEdits, to: try editableItems(receiptID, in: connection), receiptID: receiptID)
            if !outcome.entries.isEmpty {
                try storeCorrectedItems(receiptID, outcome.items, in: connection)
                for entry in outcome.entries {
                    try insert(.item, machineValue: entry.machineValue, personValue: entry.personValue)
                }
            }
        }
        if let decision, try current.string("status") != decision.status.rawValue {
            try record(.status, old: try current.string("status"), new: decision.status.rawValue)
        }
        guard !recorded.isEmpty else { return ReviewOutcome(corrections: []) }
        try KeptCorrections.restore(receiptID, in: connection)
        if recorded.contains(where: { $0.field == .field(.total) || $0.field == .field(.date) }) {
            try relearnPrintedLayout(receiptID, in: connection)
        }
        if let merchant = changes[.merchant] ?? nil, let key = try KeptCorrections.headerKey(of: current),
            recorded.contains(where: { $0.field == .field(.merchant) })
        {
            try connection.query(
                """
                INSERT INTO merchant_aliases (header_key, merchant, learned_from, created_by) VALUES ($1, $2, $3, $4)
                ON CONFLICT (header_key) DO UPDATE
                    SET merchant = EXCLUDED.merchant, learned_from = EXCLUDED.learned_from,
                        created_by = EXCLUDED.created_by, created_at = now()
                """, [key, merchant, receiptID, person])
        }
        let merchantNamed = recorded.contains { $0.field == .field(.merchant) }
        guard decision == .accept || merchantNamed else { return ReviewOutcome(corrections: recorded) }
        return ReviewOutcome(
            corrections: recorded,
            rereading: try Reprocessing.rereadHeld(confirmedBy: receiptID, merchantNamed: merchantNamed, in: connection)
        )
    }

    /// Learns again how the receipt printed its total and date (`printed_layout`) once a person corrected either: the
    /// machine's lines printed the value it read, so the person's value is looked for on the page.
    private static func relearnPrintedLayout(_ receiptID: Int64, in connection: isolated PostgresConnection) throws {
        guard
            let row = try connection.query(
                """
                SELECT ocr_text, total::text AS total, expense_date::text AS date,
                       coalesce(field_sources -> 'total' ->> 'lines', '[]') AS total_lines,
                       coalesce(field_sources -> 'date' ->> 'lines', '[]') AS date_lines
                FROM expenses WHERE receipt_id = $1
                """, [receiptID]
            ).first
        else { return }
        /// The line numbers `field_sources` gives one field (`column`).
        func lines(_ column: String) throws(PostgresError) -> [Int] {
            do {
                return try row.json(column, as: [Int].self) ?? []
            } catch {
                throw PostgresError(
                    code: .decodingFailed,
                    message: "receipt \(receiptID): relearning how it prints its total and date, the line numbers "
                        + "of expenses.field_sources are damaged: \(error.message)")
            }
        }
        let date = try row.string("date").flatMap { text -> ReceiptDate? in
            let parts = text.split(separator: "-").compactMap { Int($0) }
            return parts.count == 3 ? ReceiptDate(year: parts[0], month: parts[1], day: parts[2]) : nil
        }
        let layout = MerchantLayout.printed(
            ocrText: try row.string("ocr_text") ?? "", total: try row.string("total").flatMap { Decimal(string: $0) },
            totalLines: try lines("total_lines"), date: date, dateLines: try lines("date_lines"))
        try connection.query(
            "UPDATE expenses SET printed_layout = $2::jsonb WHERE receipt_id = $1",
            [receiptID, layout.storedJSON])
    }

    /// The receipt's items as a person edits them: the person's list once they edited it, else the machine's.
    private static func editableItems(_ receiptID: Int64, in connection: isolated PostgresConnection) throws
        -> [EditableItem]
    {
        let edited =
            try connection.query(
                "SELECT 1 FROM corrections WHERE receipt_id = $1 AND field = $2 LIMIT 1",
                [receiptID, CorrectionField.item.rawValue]
            ).count > 0
        let rows =
            edited
            ? try connection.query(
                """
                SELECT position, name, quantity::text AS quantity, unit_price::text AS unit_price,
                       total_price::text AS total_price, category, machine_reading
                FROM corrected_items WHERE receipt_id = $1 ORDER BY position
                """, [receiptID])
            : try connection.query(
                """
                SELECT position, name, quantity::text AS quantity, unit_price::text AS unit_price,
                       total_price::text AS total_price, category
                FROM expense_items WHERE expense_id = (SELECT id FROM expenses WHERE receipt_id = $1)
                ORDER BY position
                """, [receiptID])
        return try rows.map { row in
            let name = try row.requiredString("name")
            let quantity = try row.decimal("quantity")
            let unitPrice = try row.decimal("unit_price")
            let amount = try row.decimal("total_price")
            let category = try row.requiredValue("category", as: ItemCategory.self)
            guard edited else {
                return EditableItem.machine(
                    position: try row.requiredInt("position"), name: name, quantity: quantity, unitPrice: unitPrice,
                    amount: amount, category: category)
            }
            return EditableItem(
                name: name, quantity: quantity, unitPrice: unitPrice, amount: amount, category: category,
                machineReading: try row.string("machine_reading"))
        }
    }

    /// Replaces the person's list of a receipt's items (`KeptCorrections` copies it to the expense).
    private static func storeCorrectedItems(
        _ receiptID: Int64, _ items: [EditableItem], in connection: isolated PostgresConnection
    ) throws {
        try connection.query("DELETE FROM corrected_items WHERE receipt_id = $1", [receiptID])
        for (index, item) in items.enumerated() {
            try connection.query(
                """
                INSERT INTO corrected_items (receipt_id, position, name, quantity, unit_price, total_price, category,
                                             machine_reading)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                """,
                [
                    receiptID, index + 1, item.name, item.quantity, item.unitPrice, item.amount, item.category.rawValue,
                    item.machineReading,
                ])
        }
    }

    // MARK: - Category rules

    public func categoryRules() async throws -> [StoredCategoryRule] {
        try await statement(
            """
            SELECT id, match_on, pattern, category, priority, learned_from FROM category_rules ORDER BY priority, id
            """
        ).map { row in
            StoredCategoryRule(
                id: try row.requiredID("id"), rule: try CategoryRuleStore.rule(row),
                learnedFrom: try row.int("learned_from").map(Int64.init))
        }
    }

    @discardableResult
    public func saveRule(_ rule: CategoryRule, id: Int64?, learnedFrom receiptID: Int64?, by person: String)
        async throws -> Int64
    {
        let rule = try rule.validated()
        let parameters: [any PostgresEncodable] = [
            rule.target.rawValue, rule.pattern, rule.categoryName, rule.priority, receiptID, person,
        ]
        if let id {
            let rows = try await statement(
                """
                UPDATE category_rules SET match_on = $1, pattern = $2, category = $3, priority = $4,
                       learned_from = coalesce($5, learned_from), created_by = $6
                WHERE id = $7 RETURNING id
                """, parameters + [id])
            guard rows.count > 0 else {
                throw ReviewError(.notFound, "no category rule has id \(id); list them with: pipeline categories list")
            }
            return id
        }
        let rows = try await statement(
            """
            INSERT INTO category_rules (match_on, pattern, category, priority, learned_from, created_by)
            VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (match_on, pattern) DO UPDATE
                SET category = EXCLUDED.category, priority = EXCLUDED.priority,
                    learned_from = coalesce(EXCLUDED.learned_from, category_rules.learned_from),
                    created_by = EXCLUDED.created_by
            RETURNING id
            """, parameters)
        guard let row = rows.first else {
            throw PostgresError(code: .decodingFailed, message: "saving a category rule returned no id")
        }
        return try row.requiredID("id")
    }

    @discardableResult
    public func removeRule(_ id: Int64) async throws -> Bool {
        try await statement("DELETE FROM category_rules WHERE id = $1", [id]).affectedRows > 0
    }

    public func categorizationSamples(since: Date?, limit: Int) async throws -> [CategorizationSample] {
        try await statement(
            """
            SELECT e.receipt_id, e.merchant, coalesce(e.ocr_text, '') AS ocr_text, e.category,
                   (SELECT coalesce(json_agg(json_build_object('name', i.name, 'category', i.category)
                                             ORDER BY i.position), '[]')
                    FROM expense_items i WHERE i.expense_id = e.id)::text AS items
            FROM expenses e WHERE e.status <> 'rejected' AND e.committed_at >= $1
            ORDER BY e.committed_at DESC, e.receipt_id DESC LIMIT $2
            """, [since ?? Date(timeIntervalSince1970: 0), limit]
        ).map { row in
            let items = try row.json("items", as: [SampleItem].self) ?? []
            return CategorizationSample(
                receiptID: try row.requiredID("receipt_id"), merchant: try row.string("merchant"),
                ocrText: try row.requiredString("ocr_text"), itemNames: items.map(\.name),
                category: try row.requiredValue("category", as: ExpenseCategory.self),
                itemCategories: items.map(\.category))
        }
    }

    /// A line item as a categorization sample reads it.
    private struct SampleItem: Decodable {
        var name: String
        var category: ItemCategory
    }

    @discardableResult
    public func applyCategories(_ changes: [CategoryChange]) async throws -> Int {
        try await transaction { connection in
            var changed = 0
            for change in changes {
                // A category a person set stays.
                if try !KeptCorrections.corrections(change.receiptID, in: connection).corrected(.category) {
                    let rows = try connection.query(
                        "UPDATE expenses SET category = $2 WHERE receipt_id = $1 AND category IS DISTINCT FROM $2",
                        [change.receiptID, change.category.rawValue])
                    changed += rows.affectedRows
                }
                try connection.query(
                    """
                    UPDATE expense_items i SET category = c.category
                    FROM unnest($2::text[]) WITH ORDINALITY AS c (category, position)
                    WHERE i.expense_id = (SELECT id FROM expenses WHERE receipt_id = $1)
                      AND i.position = c.position AND i.category <> c.category
                    """,
                    [change.receiptID, SQLLiterals.array(change.itemCategories.map { Optional.some($0.rawValue) })])
                // A person's list of items keeps the new categories too.
                try connection.query(
                    """
                    UPDATE corrected_items c SET category = i.category
                    FROM expense_items i JOIN expenses e ON e.id = i.expense_id
                    WHERE e.receipt_id = $1 AND c.receipt_id = $1 AND c.position = i.position
                      AND c.category <> i.category
                    """, [change.receiptID])
            }
            return changed
        }
    }

    // MARK: - Reports

    public func spending(by grouping: SpendingGrouping, month: String?) async throws -> [SpendingRow] {
        let key =
            switch grouping {
            case .month: "coalesce(to_char(e.expense_date, 'YYYY-MM'), 'undated')"
            case .category: "e.category"
            // A brand's receipts under one name, whatever each printed (`Lidl`, `LIDL Berlin`, `Lidl GmbH`).
            case .merchant: "coalesce(e.brand, e.merchant, 'unknown')"
            }
        // By the sum, not its text: "6.40" sorts after "327.00" as text.
        let order = grouping == .month ? "key, currency" : "sum(e.total) DESC, key"
        return try await statement(
            """
            SELECT \(key) AS key, e.currency, count(*) AS n, sum(e.total)::text AS total
            FROM expenses e
            WHERE e.status = 'accepted' AND e.total IS NOT NULL
              AND ($1::text IS NULL OR to_char(e.expense_date, 'YYYY-MM') = $1)
            GROUP BY 1, 2 ORDER BY \(order)
            """, [month]
        ).map { row in
            SpendingRow(
                key: try row.requiredString("key"), currency: try row.string("currency"),
                expenses: try row.requiredInt("n"), total: try row.requiredDecimal("total"))
        }
    }

    public func priceHistory(item: String, limit: Int) async throws -> [PricePoint] {
        let escaped = item.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
            .replacingOccurrences(of: "_", with: "\\_")
        return try await statement(
            """
            SELECT e.receipt_id, e.expense_date::text AS date, e.merchant, i.name, i.quantity::text AS quantity,
                   i.unit_price::text AS unit_price, i.total_price::text AS total_price, e.currency
            FROM expense_items i JOIN expenses e ON e.id = i.expense_id
            WHERE e.status = 'accepted' AND i.name ILIKE '%' || $1 || '%'
            ORDER BY e.expense_date NULLS LAST, e.receipt_id, i.position LIMIT $2
            """, [escaped, limit]
        ).map { row in
            PricePoint(
                receiptID: try row.requiredID("receipt_id"), date: try row.string("date"),
                merchant: try row.string("merchant"), itemName: try row.requiredString("name"),
                quantity: try row.decimal("quantity"), unitPrice: try row.decimal("unit_price"),
                totalPrice: try row.decimal("total_price"), currency: try row.string("currency"))
        }
    }

    /// Whether the review tables exist (migrations 0010–0012 applied).
    public static func isMigrated(_ connection: PostgresConnection) async throws -> Bool {
        try await connection.query("SELECT to_regclass('merchant_aliases') IS NOT NULL AS ready").first?.bool("ready")
            == true
    }

    public func learningCounters() async throws -> LearningCounters {
        // A learned merchant rule matches the later expenses whose merchant holds its pattern's words.
        let rules = try await statement(
            "SELECT id, pattern FROM category_rules WHERE learned_from IS NOT NULL AND match_on = 'merchant'"
        ).compactMap { row -> (id: Int64, words: String)? in
            guard let words = PostgresCategoryHistory.merchantKey(try row.requiredString("pattern")) else { return nil }
            return (try row.requiredID("id"), words)
        }
        let row = try await statement(
            """
            SELECT (SELECT count(*) FROM merchant_aliases) AS aliases,
                   (SELECT coalesce(sum(uses), 0) FROM merchant_aliases) AS alias_uses,
                   (SELECT count(*) FROM category_rules WHERE learned_from IS NOT NULL) AS rules,
                   (SELECT count(*) FROM unnest($1::bigint[], $2::text[]) AS p(rule_id, words)
                        JOIN category_rules r ON r.id = p.rule_id
                        JOIN expenses e ON e.committed_at > r.created_at AND e.receipt_id <> r.learned_from
                       AND ' ' || e.merchant_key || ' ' LIKE '% ' || p.words || ' %') AS rule_matches,
                   (SELECT count(*) FROM corrections) AS corrections
            """, [SQLLiterals.array(rules.map(\.id)), SQLLiterals.array(rules.map { $0.words as String? })]
        ).first
        guard let row else {
            throw PostgresError(code: .decodingFailed, message: "the learning counters returned no row")
        }
        return LearningCounters(
            merchantAliases: try row.requiredInt("aliases"), merchantAliasUses: try row.requiredInt("alias_uses"),
            learnedRules: try row.requiredInt("rules"), learnedRuleMatches: try row.requiredInt("rule_matches"),
            corrections: try row.requiredInt("corrections"))
    }
}
