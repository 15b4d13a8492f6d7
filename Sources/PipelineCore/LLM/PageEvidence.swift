import Foundation

/// Where on the OCR page a value is printed: the lines that support an amount, a date, a name or an item price.
///
/// Allows the same OCR slips as ``AmountEvidence`` for numbers (digit look-alikes, either decimal separator) and
/// every printed form of a date (numeric in both day/month orders, month names, 2- or 4-digit years).
///
/// Built once per reply from the lines the rules extraction read (``ReceiptPage``); the amount guard of the reply
/// (``LLMExtraction``) and the merge (``DraftMerge``) both look values up in it.
public struct PageEvidence: Sendable {
    let lines: [ReceiptLine]
    /// What each line's numbers could stand for, by line.
    private let amounts: [Set<Decimal>]
    /// What any number on the page could stand for (``AmountEvidence/printedAmounts(in:)`` of the whole text).
    let printedAmounts: Set<Decimal>
    /// The line after the merchant's name: item lines start at or below it.
    let headerEnd: Int

    /// Names need this share of their letters and digits matched (edit distance) to count as printed.
    static let nameSimilarity = 0.8
    /// An item's name must resemble its line this much (OCR garbles item names more than merchant names).
    static let itemNameSimilarity = 0.5
    /// Names shorter than this (after normalizing) must be printed exactly.
    static let shortName = 5

    /// The evidence of `page` for merging into `rules`, the rules' reading of it (item lines start below the
    /// merchant's name they read).
    public init(page: ReceiptPage, rules: ExpenseDraft) {
        let merchantLines = rules.merchant?.sourceLines ?? []
        lines = page.lines
        amounts = lines.map { AmountEvidence.printedAmounts(in: $0.text) }
        // Numbers never run across lines (a line break ends one), so the page's are the union of its lines'.
        printedAmounts = amounts.reduce(into: []) { $0.formUnion($1) }
        headerEnd = (merchantLines.filter { $0 < MerchantExtractor.searchDepth }.max() ?? -1) + 1
    }

    /// Lines printing `value` (sign ignored); lines whose keyword names `role` first when any does.
    func lines(printing value: Decimal, role: LineRole? = nil) -> [Int] {
        let magnitude = value < 0 ? -value : value
        let printing = lines.indices.filter { amounts[$0].contains(magnitude) }
        let named = printing.filter { lines[$0].role == role }
        return role != nil && !named.isEmpty ? named : printing
    }

    /// Item lines printing `price`: lines below the merchant's name and above the last total line that name no
    /// total, tax, payment or other summary role.
    func itemLines(printing price: Decimal) -> [Int] {
        let lastTotal = lines.last { $0.role == .total }?.index ?? lines.count
        return lines(printing: price).filter { index in
            index >= headerEnd && index < lastTotal && lines[index].role == nil
        }
    }

    /// Item lines printing `price` whose words (or the line above's: names wrap) resemble `name` at least
    /// ``itemNameSimilarity``, the closest first.
    func itemLines(printing price: Decimal, named name: String) -> [Int] {
        let scored = itemLines(printing: price).map { index in
            (index, max(nameMatch(name, onLine: index), index > 0 ? nameMatch(name, onLine: index - 1) : 0))
        }
        return scored.filter { $0.1 >= Self.itemNameSimilarity }.sorted { $0.1 > $1.1 }.map(\.0)
    }

    /// Lines printing `date` in any form (also where OCR ran the year into the time: `DateExtractor` separates them).
    func lines(printing date: ReceiptDate) -> [Int] {
        lines.filter { line in
            [true, false].contains { monthFirst in
                DateExtractor.dates(on: line, monthFirst: monthFirst).contains {
                    $0.date.year == date.year && $0.date.month == date.month && $0.date.day == date.day
                }
            }
        }.map(\.index)
    }

    /// Lines naming `name`: one line or two adjacent lines (names wrap) hold it within ``nameSimilarity``.
    func lines(naming name: String) -> [Int] {
        let wanted = Array(TextSimilarity.normalized(name))
        guard !wanted.isEmpty else { return [] }
        for index in lines.indices where Self.holds(wanted, in: lines[index].text) {
            return [index]
        }
        for index in lines.indices.dropLast() where Self.holds(wanted, in: lines[index].text + lines[index + 1].text) {
            return [index, index + 1]
        }
        return []
    }

    /// How well `name` matches the words on line `index`, 0–1.
    private func nameMatch(_ name: String, onLine index: Int) -> Double {
        let wanted = Array(TextSimilarity.normalized(name))
        guard !wanted.isEmpty else { return 0 }
        let text = Array(TextSimilarity.normalized(lines[index].text))
        return 1 - Double(TextSimilarity.editDistance(wanted, text, withinRight: true)) / Double(wanted.count)
    }

    /// Whether `text` holds `wanted` (normalized) with few enough edits.
    static func holds(_ wanted: [Character], in text: String) -> Bool {
        let haystack = Array(TextSimilarity.normalized(text))
        let distance = TextSimilarity.editDistance(wanted, haystack, withinRight: true)
        if wanted.count < shortName { return distance == 0 }
        return 1 - Double(distance) / Double(wanted.count) >= nameSimilarity
    }
}
