import Foundation
import PipelineCore
import PostgresStore
import ReceiptIntake

/// The text of `pipeline show`: everything stored about one receipt.
enum ReceiptReport {
    /// Whether `reference` can name a receipt: an id, or 6 or more hex digits of its SHA-256.
    static func isReference(_ reference: String) -> Bool {
        Int64(reference) != nil || isHashPrefix(reference)
    }

    /// Whether `reference` is the start of a SHA-256 rather than an id.
    static func isHashPrefix(_ reference: String) -> Bool {
        reference.count >= 6 && reference.count <= 64 && reference.allSatisfy(\.isHexDigit) && Int64(reference) == nil
    }

    /// - Parameter reconciler: re-runs the arithmetic checks over corrected amounts and items.
    static func render(_ record: ReceiptHistory.Record, reconciler: Reconciler) -> String {
        let receipt = record.receipt
        let id = receipt.id
        var lines: [String] = []
        lines.append("receipt \(id): \(receipt.originalPath.escapingControlCharacters)")
        lines.append(
            "  sha256 \(receipt.sha256), \(receipt.format.rawValue), \(receipt.byteCount) bytes, "
                + "ingested \(receipt.ingestedAt)")
        if let email = receipt.email {
            lines.append(
                "  e-mail from \(email.sender.escapingControlCharacters), "
                    + "subject \"\((email.subject ?? "").escapingControlCharacters)\", sent \(email.sentAt ?? "–")")
        }

        for job in record.jobs {
            lines.append(
                "job \(job.id): \(job.state.rawValue), attempt \(job.attempts) of \(job.maxAttempts), "
                    + "next run \(job.runAt)")
            if let error = job.lastError { lines.append("  last error: \(error.escapingControlCharacters)") }
            if job.state == .dead { lines.append("  fix the cause, then: pipeline retry \(id)") }
            if job.errors != "[]" { lines.append("  error history: \(job.errors)") }
        }

        if let expense = record.expense {
            lines += describe(expense)
            for item in record.items {
                lines.append(
                    "  item \(item.position): \(item.name) × \(item.quantity ?? "–") @ \(item.unitPrice ?? "–") = "
                        + "\(item.totalPrice ?? "–") [\(item.category.rawValue)]")
            }
        } else {
            lines.append("expense: none yet")
        }
        let corrections = record.corrections
        if !corrections.isEmpty { lines.append("corrections:") }
        for correction in corrections {
            lines.append(
                "  \(correction.correctedAt) \(correction.correctedBy): \(correction.field.rawValue) "
                    + "\(correction.machineValue ?? "–") → \(correction.personValue ?? "–")")
        }
        if let detail = record.correctedDetail, detail.hasCorrectedAmounts {
            lines.append("  " + describeChecks(detail.recheck(with: reconciler)))
        }

        let timings = record.stageTimings
        if !timings.isEmpty { lines.append("stage timings:") }
        for timing in timings {
            let detail = timing.detail.map { " — \($0.escapingControlCharacters)" } ?? ""
            lines.append(
                "  attempt \(timing.attempt) \(timing.stage.rawValue): \(timing.milliseconds) ms "
                    + "\(timing.outcome.rawValue)\(detail)")
        }
        return lines.joined(separator: "\n")
    }

    /// The expense's lines of `pipeline show`: its status and sources, its fields, how sure each key field was, why
    /// it waits, its findings and the LLM's use.
    private static func describe(_ expense: ReceiptHistory.Expense) -> [String] {
        func text(_ value: String?) -> String { value ?? "–" }
        var lines = [
            "expense \(expense.id): \(expense.status.rawValue) (\(expense.validationOutcome.rawValue)), "
                + "from \(expense.extractionSource.rawValue), text by \(expense.pageSource.rawValue), "
                + "confidence \(text(expense.confidence))",
            "  merchant \(text(expense.merchant)); date \(text(expense.date))"
                + (expense.dateIsAmbiguous ? " (day/month ambiguous)" : "")
                + "; currency \(text(expense.currency)); category \(text(expense.category)); "
                + "payment \(text(expense.paymentMethod))",
            "  subtotal \(text(expense.subtotal)), discounts \(text(expense.discounts)), fees \(text(expense.fees)), "
                + "tax \(text(expense.tax)), tip \(text(expense.tip)), total \(text(expense.total))",
        ]
        if let trust = fieldTrust(expense.fieldSources) { lines.append("  " + trust) }
        if let duplicate = expense.possibleDuplicateOf {
            lines.append("  possible duplicate of receipt \(duplicate) (\(ReviewReason.duplicateGrounds))")
        }
        if !expense.reasons.isEmpty {
            lines.append("  review reasons: " + expense.reasons.map(\.rawValue).joined(separator: ", "))
        }
        for finding in expense.findings {
            lines.append("  finding \(finding.code.rawValue): \(finding.message.escapingControlCharacters)")
        }
        if expense.llmCalls > 0 {
            lines.append(
                "  LLM \(text(expense.llmModel)): \(expense.llmCalls) calls, \(expense.llmInputTokens) tokens in, "
                    + "\(expense.llmOutputTokens) out")
        }
        return lines
    }
}

/// Each key field's calibrated probability of being right as the commit stored it (`field_sources`), with the
/// threshold it needed: "right with probability: merchant 62.0% (needs 97.0%, not trusted), date 99.1%, total 99.8%",
/// and what trusted a field below it ("merchant 84.0% (needs 93.0%; trusted: a known brand, …)"); nil when the
/// expense has none stored (committed before per-field trust).
func fieldTrust(_ sources: FieldSources?) -> String? {
    guard let sources else { return nil }
    let parts = KeyField.allCases.compactMap { field -> String? in
        guard let trust = sources[field]?.trust else { return nil }
        let threshold = sources[field]?.trustThreshold ?? 0
        let needed = String(format: "needs %.1f%%", threshold * 100)
        let vouch = sources[field]?.vouchedBy
        let needs = trust >= threshold ? "" : " (\(needed)" + (vouch.map { "; trusted: \($0))" } ?? ", not trusted)")
        return "\(field.rawValue) " + String(format: "%.1f%%", trust * 100) + needs
    }
    return parts.isEmpty ? nil : "right with probability: " + parts.joined(separator: ", ")
}
