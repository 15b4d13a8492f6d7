import Foundation
import TestSupport

@testable import PipelineCore

/// A damaged reply a model could plausibly give: one key field read from another line the page prints, so that the
/// wrong value is printed on the receipt (unlike `wrong-merchant`, `wrong-date` and `invented`, which the page does
/// not show). `LLMLabelRepliesBenchmark` writes them from each receipt's page and its right reply; they are what a
/// model value printed on the page must not be trusted for.
enum PrintedDamage: String, CaseIterable {
    /// The merchant named as another top line with a word on it, the nearest to the right name's line.
    case merchant = "printed-merchant"
    /// The total as another amount printed on the page, the nearest to the right total's line.
    case total = "printed-total"
    /// The date as another date the page prints (the other day/month order first), when it prints one.
    case date = "printed-date"

    /// The reply key this damage changes.
    var key: String {
        switch self {
        case .merchant: "merchant"
        case .total: "amount"
        case .date: "date"
        }
    }

    /// The damaged value as a JSON value, or nil when the page prints no other value of this kind (or the right
    /// reply has none to damage).
    func value(on page: ReceiptPage, merchant: String?, total: Decimal?, date: ReceiptDate?) -> String? {
        switch self {
        case .merchant: merchant.flatMap { otherName(on: page, than: $0) }.map(Self.jsonString)
        case .total: total.flatMap { otherAmount(on: page, than: $0) }.map { "\($0)" }
        case .date: date.flatMap { otherDate(on: page, than: $0) }.map { Self.jsonString($0.description) }
        }
    }

    private func otherName(on page: ReceiptPage, than name: String) -> String? {
        let wanted = Array(TextSimilarity.normalized(name))
        let top = page.lines.prefix(MerchantExtractor.searchDepth)
        let nameLine = top.first { PageEvidence.holds(wanted, in: $0.text) }?.index ?? 0
        let others = top.filter { line in
            line.letters.count >= 4 && !PageEvidence.holds(wanted, in: line.text)
                && !PageEvidence.holds(Array(TextSimilarity.normalized(line.text)), in: name)
                && TextSimilarity.similarity(line.text, name) < PageEvidence.nameSimilarity
        }
        return others.min { abs($0.index - nameLine) < abs($1.index - nameLine) }?.text
            .trimmingCharacters(in: .whitespaces)
    }

    private func otherAmount(on page: ReceiptPage, than total: Decimal) -> Decimal? {
        let totalLine =
            page.lines.first { $0.role == .total && $0.moneyAmounts.contains { $0.value == total } }
            ?? page.lines.first { $0.moneyAmounts.contains { $0.value == total } }
        let anchor = totalLine?.index ?? page.lines.count
        let others = page.lines.flatMap { line in
            line.moneyAmounts.filter { $0.value > 0 && $0.value != total }.map { (line.index, $0.value) }
        }
        return others.min { abs($0.0 - anchor) < abs($1.0 - anchor) }?.1
    }

    private func otherDate(on page: ReceiptPage, than date: ReceiptDate) -> ReceiptDate? {
        func same(_ one: ReceiptDate, _ other: ReceiptDate) -> Bool {
            one.year == other.year && one.month == other.month && one.day == other.day
        }
        let printed = page.lines.flatMap { line in
            [false, true].flatMap { monthFirst in DateExtractor.dates(on: line, monthFirst: monthFirst).map(\.date) }
        }
        let swapped = ReceiptDate(year: date.year, month: date.day, day: date.month)
        return printed.first { same($0, swapped) && !same($0, date) } ?? printed.first { !same($0, date) }
    }

    private static func jsonString(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }

    /// Writes this damage of every receipt's right OpenAI reply in `corpus` as `openai/NAME.<raw value>.json`;
    /// receipts whose page prints no other value get none (the benchmark skips them for this damage).
    static func write(_ damage: PrintedDamage, receipts: [(name: String, page: OCRPage)], corpus: URL) throws {
        for (name, page) in receipts {
            let right = corpus.appendingPathComponent("openai/\(name).right.json")
            guard FileManager.default.fileExists(atPath: right.path),
                var body = try JSONSerialization.jsonObject(with: Data(contentsOf: right)) as? [String: Any],
                var choices = body["choices"] as? [[String: Any]],
                var message = choices.first?["message"] as? [String: Any],
                let content = message["content"] as? String,
                let reply = try JSONSerialization.jsonObject(with: Data(content.utf8)) as? [String: Any]
            else { continue }
            let total = (reply["amount"] as? NSNumber).flatMap { Decimal(string: "\($0)") }
            let date = (reply["date"] as? String).flatMap(ReceiptDate.init(iso:))
            guard
                let value = damage.value(
                    on: ReceiptPage(page), merchant: reply["merchant"] as? String, total: total, date: date),
                let range = content.range(
                    of: "\"\(damage.key)\": (\"[^\"]*\"|[-0-9.]+)", options: .regularExpression)
            else { continue }
            message["content"] = content.replacingCharacters(in: range, with: "\"\(damage.key)\": \(value)")
            choices[0]["message"] = message
            body["choices"] = choices
            try JSONSerialization.data(withJSONObject: body).write(
                to: corpus.appendingPathComponent("openai/\(name).\(damage.rawValue).json"))
        }
    }
}
