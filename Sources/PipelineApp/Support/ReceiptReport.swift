import Foundation
import PipelineCore
import PostgresStore

/// The text of `pipeline show`: everything stored about one receipt.
enum ReceiptReport {
    /// Whether `reference` can name a receipt: an id, or 6 or more hex digits of its SHA-256.
    static func isReference(_ reference: String) -> Bool {
        Int64(reference) != nil || isHashPrefix(reference)
    }

    private static func isHashPrefix(_ reference: String) -> Bool {
        reference.count >= 6 && reference.count <= 64 && reference.allSatisfy(\.isHexDigit) && Int64(reference) == nil
    }

    /// - Parameter reconciler: re-runs the arithmetic checks over corrected amounts and items.
    static func render(reference: String, reconciler: Reconciler, from connection: PostgresConnection) async throws
        -> String?
    {
        let isHash = isHashPrefix(reference)
        let receipts = try await ReceiptHistory.receipts(matching: reference, isHashPrefix: isHash, in: connection)
        guard let receipt = receipts.first, let id = try receipt.int("id") else { return nil }
        var lines: [String] = []
        lines.append("receipt \(id): \((try receipt.string("original_path") ?? "").escapingControlCharacters)")
        lines.append(
            "  sha256 \(try receipt.string("sha256") ?? ""), \(try receipt.string("format") ?? ""), "
                + "\(try receipt.int("byte_count") ?? 0) bytes, ingested \(try receipt.string("ingested_at") ?? "")")
        if let sender = try receipt.string("sender") {
            lines.append(
                "  e-mail from \(sender.escapingControlCharacters), subject \"\((try receipt.string("subject") ?? "").escapingControlCharacters)\", "
                    + "sent \(try receipt.string("sent_at") ?? "–")")
        }

        for job in try await ReceiptHistory.jobs(ofReceipt: id, in: connection) {
            lines.append(
                "job \(try job.int("id") ?? 0): \(try job.string("state") ?? ""), attempt "
                    + "\(try job.int("attempts") ?? 0) of \(try job.int("max_attempts") ?? 0), next run \(try job.string("run_at") ?? "")"
            )
            if let error = try job.string("last_error") {
                lines.append("  last error: \(error.escapingControlCharacters)")
            }
            if try job.string("state") == "dead" { lines.append("  fix the cause, then: pipeline retry \(id)") }
            if let history = try job.string("errors"), history != "[]" { lines.append("  error history: \(history)") }
        }

        let expenses = try await ReceiptHistory.expense(ofReceipt: id, in: connection)
        if let expense = expenses.first, let expenseID = try expense.int("id") {
            func value(_ column: String) throws -> String { try expense.string(column) ?? "–" }
            lines.append(
                "expense \(expenseID): \(try value("status")) (\(try value("validation_outcome"))), "
                    + "from \(try value("extraction_source")), text by \(try value("page_source")), "
                    + "confidence \(try value("confidence"))")
            lines.append(
                "  merchant \(try value("merchant")); date \(try value("date"))"
                    + (try expense.bool("date_is_ambiguous") == true ? " (day/month ambiguous)" : "")
                    + "; currency \(try value("currency")); category \(try value("category")); payment \(try value("payment_method"))"
            )
            lines.append(
                "  subtotal \(try value("subtotal")), discounts \(try value("discounts")), fees \(try value("fees")), "
                    + "tax \(try value("tax")), tip \(try value("tip")), total \(try value("total"))")
            if let trust = fieldTrust(try expense.json("field_sources", as: FieldSources.self)) {
                lines.append("  " + trust)
            }
            if let duplicate = try expense.int("possible_duplicate_of") {
                lines.append(
                    "  possible duplicate of receipt \(duplicate) (\(ReviewReason.duplicateGrounds))"
                )
            }
            if let reasons = try expense.string("reasons"), !reasons.isEmpty {
                lines.append("  review reasons: \(reasons)")
            }
            for finding in try expense.json("findings", as: [Finding].self) ?? [] {
                lines.append("  finding \(finding.code.rawValue): \(finding.message.escapingControlCharacters)")
            }
            if try expense.int("llm_calls") ?? 0 > 0 {
                lines.append(
                    "  LLM \(try value("llm_model")): \(try value("llm_calls")) calls, "
                        + "\(try value("llm_input_tokens")) tokens in, \(try value("llm_output_tokens")) out")
            }
            for item in try await ReceiptHistory.items(ofExpense: expenseID, in: connection) {
                lines.append(
                    "  item \(try item.int("position") ?? 0): \(try item.string("name") ?? "") × "
                        + "\(try item.string("quantity") ?? "–") @ \(try item.string("unit_price") ?? "–") = "
                        + "\(try item.string("total_price") ?? "–") [\(try item.string("category") ?? "")]")
            }
        } else {
            lines.append("expense: none yet")
        }
        let corrections = try await ReceiptHistory.corrections(ofReceipt: id, in: connection)
        if corrections.count > 0 { lines.append("corrections:") }
        for correction in corrections {
            lines.append(
                "  \(try correction.string("corrected_at") ?? "") "
                    + "\(try correction.string("corrected_by") ?? ""): "
                    + "\(try correction.string("field") ?? "") \(try correction.string("machine_value") ?? "–") → "
                    + "\(try correction.string("person_value") ?? "–")")
        }
        if corrections.count > 0, let detail = try await correctedDetail(Int64(id), from: connection),
            detail.hasCorrectedAmounts
        {
            lines.append("  " + describeChecks(detail.recheck(with: reconciler)))
        }

        let timings = try await ReceiptHistory.stageTimings(ofReceipt: id, in: connection)
        if timings.count > 0 { lines.append("stage timings:") }
        for timing in timings {
            let detail = try timing.string("detail").map { " — \($0.escapingControlCharacters)" } ?? ""
            lines.append(
                "  attempt \(try timing.int("attempt") ?? 0) \(try timing.string("stage") ?? ""): "
                    + "\(try timing.string("ms") ?? "") ms \(try timing.string("outcome") ?? "")\(detail)")
        }
        return lines.joined(separator: "\n")
    }

    /// The receipt as the review page sees it, nil while it has no expense (its corrections wait for one).
    private static func correctedDetail(_ id: Int64, from connection: PostgresConnection) async throws
        -> ReceiptDetail?
    {
        do {
            return try await PostgresReviewStore(database: connection).receipt(id)
        } catch let error as ReviewError where error.code == .noExpense {
            return nil
        }
    }
}

/// Each key field's calibrated probability of being right as the commit stored it (`field_sources`), with the
/// threshold it needed: "right with probability: merchant 62% (needs 97%), date 99.1%, total 99.8%"; nil when the
/// expense has none stored (committed before per-field trust).
func fieldTrust(_ sources: FieldSources?) -> String? {
    guard let sources else { return nil }
    let parts = KeyField.allCases.compactMap { field -> String? in
        guard let trust = sources[field]?.trust else { return nil }
        let threshold = sources[field]?.trustThreshold ?? 0
        let needs = trust < threshold ? String(format: " (needs %.1f%%, not trusted)", threshold * 100) : ""
        return "\(field.rawValue) " + String(format: "%.1f%%", trust * 100) + needs
    }
    return parts.isEmpty ? nil : "right with probability: " + parts.joined(separator: ", ")
}
