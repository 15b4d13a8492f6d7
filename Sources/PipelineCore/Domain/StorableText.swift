/// Text from outside (OCR, a model's reply, an e-mail header, a file name) made storable: the one place that decides
/// which characters a database column refuses and what stands in for them.
///
/// PostgreSQL refuses U+0000 (NUL) in `text` and in `jsonb` (SQLSTATE 22P05); every other Unicode scalar a Swift
/// `String` can hold is stored as it is. A refused character becomes U+FFFD (the replacement character), so a
/// person sees where something was replaced.
public enum StorableText {
    /// What stands in for a refused character.
    public static let replacement: Character = "\u{FFFD}"

    /// Whether `text` holds a character a column refuses.
    public static func isRefused(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: isRefused)
    }

    /// `text` with every refused character replaced.
    public static func storable(_ text: String) -> String {
        guard isRefused(text) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            scalars.append(isRefused(scalar) ? replacement.unicodeScalars.first! : scalar)
        }
        return String(scalars)
    }

    private static func isRefused(_ scalar: Unicode.Scalar) -> Bool { scalar.value == 0 }
}

extension ExpenseRecord {
    /// The record with every text it stores made storable (`StorableText`), and a finding naming each field that
    /// held a refused character: the commit stores what it can instead of failing the job on the same value again.
    public func storable() -> ExpenseRecord {
        var record = self
        var replaced: [String] = []
        func clean(_ text: inout String, _ what: String) {
            guard StorableText.isRefused(text) else { return }
            text = StorableText.storable(text)
            replaced.append(what)
        }
        if var merchant = record.result.draft.merchant {
            clean(&merchant.value, "the merchant")
            record.result.draft.merchant = merchant
        }
        if var currency = record.result.draft.currency {
            clean(&currency.value, "the currency")
            record.result.draft.currency = currency
        }
        for index in record.result.draft.items.indices {
            clean(&record.result.draft.items[index].name, "item \(index + 1)'s name")
        }
        for index in record.result.findings.indices { clean(&record.result.findings[index].message, "a finding") }
        for index in record.extraFindings.indices { clean(&record.extraFindings[index].message, "a finding") }
        for index in record.notes.indices { clean(&record.notes[index].message, "a note") }
        for index in record.result.draft.notes.indices { clean(&record.result.draft.notes[index].message, "a note") }
        clean(&record.ocrText, "the OCR text")
        if var usage = record.llmUsage {
            clean(&usage.model, "the model's name")
            record.llmUsage = usage
        }
        for index in record.timings.indices {
            guard var detail = record.timings[index].detail else { continue }
            clean(&detail, "a stage's detail")
            record.timings[index].detail = detail
        }
        guard !replaced.isEmpty else { return record }
        var seen = Set<String>()
        let fields = replaced.filter { seen.insert($0).inserted }
        record.notes.append(
            Finding(
                .unstorableText,
                "\(fields.joined(separator: ", ")) held characters the database cannot store (NUL); each was "
                    + "replaced by \(StorableText.replacement)"))
        return record
    }
}
