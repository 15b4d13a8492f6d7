import Foundation

/// How a known merchant prints its total and date, learned from its accepted receipts: the words of the line each
/// total was printed on and the form of each date. A later receipt read as that merchant whose total and date are
/// printed the same way, with nothing on the page saying otherwise, has them vouched for (`LayoutAgreement`).
public struct MerchantLayout: Sendable, Equatable, Codable {
    /// The folded words of the lines its totals were printed on (`TOTAL ROUNDED`, `GRAND TOTAL RM`): the line each
    /// total was read from and every other total line printing the same amount.
    public var totalKeywords: [String]
    /// How its dates were printed.
    public var dateForms: [DateForm]
    /// Of `totalKeywords`, those every learned receipt with a total line printed its total on (`TOTAL PAYABLE`,
    /// where receipts without a 6% supply also printed it on `TOTAL 0% SUPPLIES`); nil for one receipt's layout (all
    /// of them).
    public var steadyTotalKeywords: [String]?

    public init(totalKeywords: [String] = [], dateForms: [DateForm] = [], steadyTotalKeywords: [String]? = nil) {
        self.totalKeywords = totalKeywords
        self.dateForms = dateForms
        self.steadyTotalKeywords = steadyTotalKeywords
    }

    public var isEmpty: Bool { totalKeywords.isEmpty && dateForms.isEmpty }

    /// The total keywords a line printing another amount contradicts the total with: the steady ones, all of them
    /// when no keyword was steady.
    var contradictingKeywords: [String] {
        guard let steady = steadyTotalKeywords, !steady.isEmpty else { return totalKeywords }
        return steady
    }

    /// The layout of a merchant's receipts, from each one's (`merging`, the first first); nil for none.
    public static func merged(_ layouts: [MerchantLayout]) -> MerchantLayout? {
        layouts.first.map { first in layouts.dropFirst().reduce(first) { $0.merging($1) } }
    }

    /// Both layouts' keywords and forms, each once, this one's first; steady are the keywords both printed their
    /// totals on (as alike as `LayoutAgreement.keywordMatch`), when both had a total line.
    public func merging(_ other: MerchantLayout) -> MerchantLayout {
        let mine = steadyTotalKeywords ?? totalKeywords
        let theirs = other.steadyTotalKeywords ?? other.totalKeywords
        let steady =
            mine.isEmpty
            ? theirs
            : theirs.isEmpty
                ? mine
                : mine.filter { keyword in
                    theirs.contains { TextSimilarity.similarity($0, keyword) >= LayoutAgreement.keywordMatch }
                }
        return MerchantLayout(
            totalKeywords: totalKeywords + other.totalKeywords.filter { !totalKeywords.contains($0) },
            dateForms: dateForms + other.dateForms.filter { !dateForms.contains($0) }, steadyTotalKeywords: steady)
    }

    /// How one receipt printed its `total` and `date`, from its OCR text: the words of the lines the total is printed
    /// on (the lines it was read from, `totalLines`, when they print it — not when a person corrected it — and every
    /// total line of the page that prints it) and the form of the date where it is printed (`dateLines` first).
    public static func printed(
        ocrText: String, total: Decimal?, totalLines: [Int], date: ReceiptDate?, dateLines: [Int]
    ) -> MerchantLayout {
        let lines = ocrText.components(separatedBy: "\n")
        var layout = MerchantLayout()
        if let total {
            layout.totalKeywords = totalKeywords(lines: lines, total: total, readFrom: totalLines)
        }
        if let date {
            let valid = dateLines.filter { $0 < lines.count }
            let others = lines.indices.filter { !valid.contains($0) }
            if let form = (valid + others).lazy.compactMap({ DateForm.forms(of: date, in: lines[$0]).first }).first {
                layout.dateForms = [form]
            }
        }
        return layout
    }

    /// The words of the lines `total` is printed on: `readFrom` when those lines print it, and each line of the page
    /// that names a total and prints it, or prints it before a rounding the page prints (`Total RM Incl. of GST
    /// 14.64`, `Rounding Adj 0.01`, `Total RM 14.65`: a later receipt needing no rounding prints its total on the
    /// first), each once.
    static func totalKeywords(lines: [String], total: Decimal, readFrom: [Int]) -> [String] {
        let source = readFrom.filter { $0 < lines.count }
        let read = source.contains { prints(total, lines[$0]) } ? keyword(of: source.map { lines[$0] }) : nil
        func role(_ line: String) -> LineRole? {
            let runs = ReceiptLine.letterRuns(line)
            return LineRole.classify(letters: runs.joined(), tokens: Set(runs))
        }
        let unrounded = lines.filter { role($0) == .rounding }.flatMap { line in
            line.split(separator: " ").compactMap { AmountParser.parse(String($0)) }
                .filter { $0.hasDecimals && $0.value != 0 }.flatMap { [total - $0.value, total + $0.value] }
        }
        let named = lines.filter { line in
            role(line) == .total && ([total] + unrounded).contains { prints($0, line) }
        }.compactMap { keyword(of: [$0]) }
        return ([read].compactMap { $0 } + named).reduce(into: []) { keywords, keyword in
            if !keywords.contains(keyword) { keywords.append(keyword) }
        }
    }

    /// The folded words of `lines`, a single letter left out (`Total Rounded: RM S12.50` → `TOTAL ROUNDED RM`: an
    /// `S` or `$` read into the amount is no word); nil without any.
    static func keyword(of lines: [String]) -> String? {
        let words = lines.flatMap(ReceiptLine.letterRuns).filter { $0.count > 1 }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }

    /// Whether `line` prints `amount` with its two decimals (`12.50` or `12,50`, not inside a longer number).
    static func prints(_ amount: Decimal, _ line: String) -> Bool {
        let text = moneyText(amount)
        guard let point = text.firstIndex(of: ".") else { return false }
        let whole = NSRegularExpression.escapedPattern(for: String(text[..<point]))
        let cents = String(text[text.index(after: point)...])
        return line.range(of: #"(?<![\d.,])\#(whole)[.,]\s?\#(cents)(?!\d)"#, options: .regularExpression) != nil
    }
}

/// How a date is printed: the order of its parts, the mark between them and the year's digits (`dd/mm/yyyy`,
/// `dd-MMM-yy`).
public struct DateForm: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The order of the parts; `monthDayYear` is a numeric date printed month first.
    public enum Order: String, Sendable, Codable, CaseIterable {
        case dayMonthYear, monthDayYear, yearMonthDay, dayNameYear, nameDayYear
    }

    public var order: Order
    /// The first mark between the parts (`/`, `-`, `.`), a space when none.
    public var separator: String
    /// 2 or 4.
    public var yearDigits: Int

    public init(order: Order, separator: String, yearDigits: Int) {
        self.order = order
        self.separator = separator
        self.yearDigits = yearDigits
    }

    /// `dd/mm/yyyy`, `dd-MMM-yy`, `yyyy-mm-dd`.
    public var description: String {
        let year = String(repeating: "y", count: yearDigits)
        let parts: [String] =
            switch order {
            case .dayMonthYear: ["dd", "mm", year]
            case .monthDayYear: ["mm", "dd", year]
            case .yearMonthDay: [year, "mm", "dd"]
            case .dayNameYear: ["dd", "MMM", year]
            case .nameDayYear: ["MMM", "dd", year]
            }
        return parts.joined(separator: separator)
    }

    /// Every reading of the dates printed on `line` with the form it takes to read it so: a numeric date whose day
    /// and month could be either way round has two.
    static func readings(in line: String) -> [(date: ReceiptDate, form: DateForm)] {
        var readings: [(date: ReceiptDate, form: DateForm)] = []
        for (parts, pattern, printed) in DateExtractor.printedDates(in: line) {
            let separator = printed.first { !$0.isLetter && !$0.isNumber && !$0.isWhitespace }.map(String.init) ?? " "
            let yearDigits = pattern.order == .yearMonthDay ? parts[0].count : parts[2].count
            for monthFirst in [false, true] {
                guard let date = DateExtractor.makeDate(parts: parts, order: pattern.order, monthFirst: monthFirst)
                else { continue }
                let order: Order =
                    switch pattern.order {
                    case .yearMonthDay: .yearMonthDay
                    case .dayNameYear: .dayNameYear
                    case .nameDayYear: .nameDayYear
                    case .dayMonthYear: Int(parts[0]) == date.day ? .dayMonthYear : .monthDayYear
                    }
                let reading = (date: date, form: DateForm(order: order, separator: separator, yearDigits: yearDigits))
                if !readings.contains(where: { $0.date.description == date.description && $0.form == reading.form }) {
                    readings.append(reading)
                }
            }
        }
        return readings
    }

    /// The forms in which `line` prints `date`.
    static func forms(of date: ReceiptDate, in line: String) -> [DateForm] {
        readings(in: line).filter { $0.date.description == date.description }.map(\.form)
    }
}

/// What a known merchant's learned layout says of a draft read as that merchant: the total's keyword and the
/// date's form it agrees with, and whether its header reads as a person confirmed it. A field is vouched for only
/// when it is printed as the merchant prints it and no other line of the page prints another value the same way;
/// the merchant's name only when its header lines read like those a person confirmed it from and the layout agrees
/// with its total or date (`AutoAcceptance.layoutVouch`).
public struct LayoutAgreement: Sendable, Equatable, Codable {
    /// The merchant the draft read when the agreement was read (a later stage that renames it voids it).
    public var merchant: String
    /// The learned keyword the total's line reads like; nil when the total does not agree.
    public var totalKeyword: String?
    /// The learned form the date is printed in; nil when the date does not agree.
    public var dateForm: DateForm?
    /// How many of the known merchant's receipts were accepted, when the draft reads its name from header lines that
    /// read like those its accepted receipts were read from (`headerMatch`); nil otherwise.
    public var confirmedHeader: Int?
    /// How many of those a person accepted or corrected; set with `confirmedHeader`.
    public var confirmedHeaderByPerson: Int?

    /// How alike a total line's words must read to a learned keyword (OCR slips: `TOTAL R0UNDED`).
    static let keywordMatch = 0.8

    /// How alike the lines a merchant's name was read from must read to a header a person confirmed for the name to
    /// be vouched for: a letter or two in ten misread, no other name (`MerchantExtractor.knownMatch` only offers it).
    static let headerMatch = 0.9

    /// Why `field` is trusted by the known merchant (its total keyword, its date form, its confirmed header); nil when
    /// it is not.
    public func vouch(for field: KeyField) -> Vouch? {
        switch field {
        case .merchant:
            confirmedHeader.map { .confirmedHeader(confirmations: $0, byPerson: confirmedHeaderByPerson ?? $0) }
        case .total: totalKeyword.map { .knownTotalLine(keyword: $0) }
        case .date: dateForm.map { .knownDateForm($0) }
        }
    }

    /// The agreement of `draft` with the learned layout of the known merchant its merchant reads like (its name or
    /// a header it was read from, as alike as `MerchantExtractor.knownMatch` asks and agreeing on its own words,
    /// `MerchantExtractor.distinctiveWordsAgree`; the most alike); nil when no known merchant with a layout reads like
    /// it, or neither field agrees.
    static func read(_ draft: ExpenseDraft, lines: [ReceiptLine], known: [KnownMerchant]) -> LayoutAgreement? {
        guard let name = draft.merchant?.value else { return nil }
        let alike = known.compactMap { merchant -> (merchant: KnownMerchant, similarity: Double)? in
            guard let layout = merchant.layout, !layout.isEmpty else { return nil }
            let similarity =
                ([merchant.name] + merchant.readings).map { reading in
                    let alike = TextSimilarity.similarity(reading, name)
                    return alike >= MerchantExtractor.knownMatch
                        && MerchantExtractor.distinctiveWordsAgree(reading, name) ? alike : 0
                }.max() ?? 0
            return similarity >= MerchantExtractor.knownMatch ? (merchant, similarity) : nil
        }
        guard let merchant = alike.max(by: { $0.similarity < $1.similarity })?.merchant, let layout = merchant.layout
        else { return nil }
        var agreement = LayoutAgreement(
            merchant: name, totalKeyword: totalKeyword(draft, lines: lines, learned: layout),
            dateForm: dateForm(draft, lines: lines, learned: layout.dateForms))
        guard agreement.totalKeyword != nil || agreement.dateForm != nil else { return nil }
        if readsConfirmedHeader(draft, lines: lines, of: merchant, known: known) {
            agreement.confirmedHeader = merchant.confirmations
            agreement.confirmedHeaderByPerson = merchant.personConfirmations
        }
        return agreement
    }

    /// Whether `draft` reads `merchant`'s own name from lines that read like a header a person confirmed it from
    /// (`headerMatch`), and no other known merchant was confirmed from a header as alike.
    static func readsConfirmedHeader(
        _ draft: ExpenseDraft, lines: [ReceiptLine], of merchant: KnownMerchant, known: [KnownMerchant]
    ) -> Bool {
        guard let read = draft.merchant, merchant.confirmations > 0,
            TextSimilarity.normalized(read.value) == TextSimilarity.normalized(merchant.name)
        else { return false }
        let header = read.sourceLines.filter { $0 < lines.count }.map { lines[$0].text }.joined(separator: " ")
        func alike(_ other: KnownMerchant) -> Double {
            other.readings.map { TextSimilarity.similarity($0, header) }.max() ?? 0
        }
        let similarity = alike(merchant)
        return similarity >= headerMatch
            && !known.contains { $0.name != merchant.name && alike($0) >= similarity }
    }

    /// The learned keyword the total's line reads like, when the amount is printed there as read (no letter read as
    /// a digit: the layout says where the total is printed, not that `S34.50` is 534.50) and no other line that reads
    /// like a steady keyword (`MerchantLayout.contradictingKeywords`) prints another amount, unless a rounding line of
    /// the page makes up the difference.
    static func totalKeyword(_ draft: ExpenseDraft, lines: [ReceiptLine], learned layout: MerchantLayout) -> String? {
        let learned = layout.totalKeywords
        let steady = layout.contradictingKeywords
        guard let total = draft.total, !draft.isTotalInferred,
            total.sourceLines.contains(where: { index in
                index < lines.count
                    && lines[index].moneyAmounts.contains { $0.value == total.value && !$0.isOCRCorrected }
            }),
            let printed = MerchantLayout.keyword(
                of: total.sourceLines.filter { $0 < lines.count }.map { lines[$0].text }),
            let keyword = learned.first(where: { TextSimilarity.similarity($0, printed) >= keywordMatch })
        else { return nil }
        // A rounding the page prints explains a total line before it (`Total Sales 52.08`, `Rounding Adjustment .02`,
        // `Rounding 52.10`): a layout learned from receipts that needed none has both lines printing the total. A
        // total line after it printing the total rounded says the total read is the amount before rounding.
        let roundings = lines.filter { $0.role == .rounding && !total.sourceLines.contains($0.index) }
            .flatMap(\.moneyAmounts).map { abs($0.value) }.filter { $0 != 0 }
        let contradicted = lines.contains { line in
            guard !total.sourceLines.contains(line.index), !line.moneyAmounts.isEmpty,
                let words = MerchantLayout.keyword(of: [line.text]),
                steady.contains(where: { TextSimilarity.similarity($0, words) >= keywordMatch })
            else { return false }
            let before = total.sourceLines.allSatisfy { line.index < $0 }
            return !line.moneyAmounts.contains {
                $0.value == total.value || before && roundings.contains(abs(total.value - $0.value))
            }
        }
        return contradicted ? nil : keyword
    }

    /// The learned form the date is printed in, when no line prints another date in a learned form.
    static func dateForm(_ draft: ExpenseDraft, lines: [ReceiptLine], learned: [DateForm]) -> DateForm? {
        guard let date = draft.date, let line = date.sourceLines.first, line < lines.count,
            let form = DateForm.forms(of: date.value, in: lines[line].text).first(where: learned.contains)
        else { return nil }
        let contradicted = lines.contains { line in
            DateForm.readings(in: line.text).contains {
                learned.contains($0.form) && $0.date.description != date.value.description
            }
        }
        return contradicted ? nil : form
    }
}

extension LayoutAgreement {
    /// Records in `draft`'s evidence how it agrees with the learned layout of the known merchant it was read as
    /// (replacing an agreement with another merchant's). - Returns: a note for each field that agrees.
    static func apply(to draft: inout ExpenseDraft, lines: [ReceiptLine], known: [KnownMerchant]) -> [Finding] {
        guard draft.evidence != nil else { return [] }
        let agreement = read(draft, lines: lines, known: known)
        draft.evidence?.layoutAgreement = agreement
        return [KeyField.merchant, .total, .date].compactMap { field in
            agreement?.vouch(for: field).map { Finding(.knownLayout, field: field.field, $0.description) }
        }
    }
}
