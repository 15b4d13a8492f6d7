import PipelineCore

/// What follows every write of a receipt's expense, in the writer's transaction: a person's corrections are put back
/// over the machine's values (`PersonCorrections`), and an accepted expense teaches its merchant. Until migration
/// 0097 triggers on `expenses` did both; the rules are Swift's now, and every writer calls this.
enum KeptCorrections {
    /// Writes the receipt's person values, decision and item list into its expense, then lets it teach its merchant.
    static func restore(_ receiptID: Int64, in connection: isolated PostgresConnection) throws {
        let person = try corrections(receiptID, in: connection)
        var assignments: [String] = []
        var parameters: [any PostgresEncodable] = [receiptID]
        func assign(_ column: String, _ value: String?, as type: String = "text") {
            parameters.append(value)
            assignments.append("\(column) = $\(parameters.count)::\(type)")
        }
        for field in CorrectableField.allCases {
            guard let value = person.values[field] else { continue }
            switch field {
            case .date:
                assign("expense_date", value, as: "date")
                assignments.append("date_is_ambiguous = false")
            case .subtotal, .discounts, .fees, .tax, .tip, .total: assign(field.rawValue, value, as: "numeric")
            case .merchant:
                assign(field.rawValue, value)
                assign("merchant_key", value.flatMap(PostgresCategoryHistory.merchantKey))
            case .currency, .category, .paymentMethod: assign(field.rawValue, value)
            }
        }
        if let status = person.status {
            assign("status", status.rawValue)
        }
        if person.clearsReasons { assignments.append("review_reasons = '{}'") }
        if !assignments.isEmpty {
            try connection.query(
                "UPDATE expenses SET \(assignments.joined(separator: ", ")) WHERE receipt_id = $1", parameters)
        }
        if person.editedItems { try keepPersonItems(receiptID, in: connection) }
        try learnMerchant(receiptID, in: connection)
    }

    /// What a person set on the receipt.
    static func corrections(_ receiptID: Int64, in connection: isolated PostgresConnection) throws
        -> PersonCorrections
    {
        PersonCorrections(
            try connection.query(
                """
                SELECT field, machine_value, person_value, corrected_by, corrected_at FROM corrections
                WHERE receipt_id = $1 ORDER BY id
                """, [receiptID]
            ).map(PostgresReviewStore.correction))
    }

    /// Makes the person's list of items (`corrected_items`) the expense's items.
    private static func keepPersonItems(_ receiptID: Int64, in connection: isolated PostgresConnection) throws {
        try connection.query(
            "DELETE FROM expense_items WHERE expense_id = (SELECT id FROM expenses WHERE receipt_id = $1)",
            [receiptID])
        try connection.query(
            """
            INSERT INTO expense_items (expense_id, position, name, quantity, unit_price, total_price, category)
            SELECT e.id, c.position, c.name, c.quantity, c.unit_price, c.total_price, c.category
            FROM corrected_items c JOIN expenses e ON e.receipt_id = c.receipt_id
            WHERE c.receipt_id = $1
            """, [receiptID])
    }

    /// An accepted expense teaches its merchant for its header (the lines the name was read from, `MerchantHeader`),
    /// unless that header already names one: later receipts whose top lines read like it get the name as a candidate
    /// of their own (`PostgresLearnedMerchants.knownMerchants`).
    private static func learnMerchant(_ receiptID: Int64, in connection: isolated PostgresConnection) throws {
        guard
            let row = try connection.query(
                """
                SELECT status, merchant, ocr_text, field_sources::text AS field_sources
                FROM expenses WHERE receipt_id = $1
                """, [receiptID]
            ).first,
            try row.requiredValue("status", as: ExpenseStatus.self) == .accepted,
            let merchant = try row.string("merchant"), !merchant.allSatisfy(\.isWhitespace),
            let key = try headerKey(of: row)
        else { return }
        try connection.query(
            """
            INSERT INTO merchant_aliases (header_key, merchant, learned_from, created_by) VALUES ($1, $2, $3, 'accepted')
            ON CONFLICT (header_key) DO NOTHING
            """, [key, merchant, receiptID])
    }

    /// The header key of an expense row with its `ocr_text` and `field_sources` (as text).
    static func headerKey(of row: PostgresRow) throws -> String? {
        let sources = try row.json("field_sources", as: FieldSources.self)
        return MerchantHeader.key(
            ocrText: try row.string("ocr_text") ?? "", merchantLines: sources?.merchant?.lines ?? [])
    }
}
