import Foundation

/// Finds the purchase date: numeric and month-name forms, OCR digit slips fixed, day/month order from the locale.
enum DateExtractor {
    static let monthNames: [String: Int] = [
        "JAN": 1, "FEB": 2, "MAR": 3, "APR": 4, "MAY": 5, "JUN": 6, "JUL": 7, "AUG": 8, "SEP": 9, "OCT": 10,
        "NOV": 11, "DEC": 12,
    ]

    /// One way dates are printed; groups name the parts.
    struct Pattern {
        enum Order { case dayMonthYear, yearMonthDay, dayNameYear, nameDayYear }
        var regex: NSRegularExpression
        var order: Order
        /// Capture groups holding the three parts, in pattern order.
        var groups: [Int]
        /// Digits without separators (`20180428`): a date only where the line says so, since long numbers abound.
        var isCompact = false
    }

    static let patterns: [Pattern] = [
        (
            #"(?<!\d)(\d{4})\s?([/\-.])\s?(\d{1,2})\s?\2\s?(\d{1,2})(?!\d)"#, Pattern.Order.yearMonthDay, [1, 3, 4],
            false
        ),
        (#"(?<!\d)(\d{1,2})\s?([/\-.])\s?(\d{1,2})\s?\2\s?(\d{4}|\d{2})(?!\d)"#, .dayMonthYear, [1, 3, 4], false),
        (#"(?<!\d)(\d{2})(\d{2})[/\-.](\d{4})(?!\d)"#, .dayMonthYear, [1, 2, 3], false),
        (
            #"(?<!\d)(\d{1,2})\s?[\-/. ]?\s?([A-Z]{3})[A-Z]*\.?\s?[\-/., ]?\s?'?(\d{4}|\d{2})(?!\d)"#, .dayNameYear,
            [1, 2, 3], false
        ),
        (
            #"(?<![A-Z])([A-Z]{3})[A-Z]*\.?\s?[\-/. ]?\s?(\d{1,2})(?:ST|ND|RD|TH)?\s?[,\-/. ']?\s?'?(\d{4}|\d{2})(?!\d)"#,
            .nameDayYear, [1, 2, 3], false
        ),
        (#"(?<!\d)(20\d{2})(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?!\d)"#, .yearMonthDay, [1, 2, 3], true),
    ].compactMap { source, order, groups, isCompact in
        (try? NSRegularExpression(pattern: source)).map {
            Pattern(regex: $0, order: order, groups: groups, isCompact: isCompact)
        }
    }

    /// A distinct date read on the page, with the features of its readings (the best of each, and how many).
    struct Candidate {
        var date: ReceiptDate
        var lineIndex: Int
        var features: CandidateFeatures<DateFeature>
    }

    /// Every distinct date on the page with its features: the words on its line (`DATE`, a time, `EXP`), the
    /// pattern it was read with, where it is and how often it is printed. Weights are fitted (`ExtractionModel.date`).
    static func candidates(lines: [ReceiptLine], monthFirst: Bool) -> [Candidate] {
        var byDate: [ReceiptDate: Candidate] = [:]
        var order: [ReceiptDate] = []
        let lineCount = Double(max(1, lines.count))
        for line in lines {
            let text = fixingDigitLookalikes(line.text.uppercased())
            for (date, pattern, hasTwoDigitYear) in dates(on: line, monthFirst: monthFirst) {
                let namesDate =
                    line.tokens.contains("DATE") || line.tokens.contains("TARIKH") || line.tokens.contains("DT")
                if pattern.isCompact, !namesDate { continue }
                var features: CandidateFeatures<DateFeature> = [.position: Double(line.index) / lineCount]
                if namesDate { features[.dateWord] = 1 }
                if line.tokens.contains("TIME") || text.range(of: #"\d{1,2}:\d{2}"#, options: .regularExpression) != nil
                {
                    features[.timeOnLine] = 1
                }
                if line.tokens.contains("EXP") || line.tokens.contains("EXPIRY") || line.tokens.contains("VALID") {
                    features[.expiryWord] = 1
                }
                if date.isAmbiguous { features[.ambiguousOrder] = 1 }
                if pattern.order == .dayNameYear || pattern.order == .nameDayYear { features[.monthName] = 1 }
                if hasTwoDigitYear { features[.twoDigitYear] = 1 }
                let key = ReceiptDate(year: date.year, month: date.month, day: date.day)
                if var existing = byDate[key] {
                    let earlier = existing.features[.position] ?? 0
                    existing.features.merge(features) { max($0, $1) }
                    existing.features[.position] = earlier
                    existing.features[.repeats] = min(2, (existing.features[.repeats] ?? 0) + 1)
                    byDate[key] = existing
                } else {
                    byDate[key] = Candidate(date: date, lineIndex: line.index, features: features)
                    order.append(key)
                }
            }
        }
        return order.compactMap { byDate[$0] }
    }

    static func extract(lines: [ReceiptLine], monthFirst: Bool, model: ExtractionModel)
        -> (ExtractedField<ReceiptDate>, [Finding], CandidateEvidence<DateFeature>)?
    {
        let ranked = RankedCandidates(
            candidates(lines: lines, monthFirst: monthFirst), features: \.features, weights: model.date)
        guard let best = ranked.best, let evidence = ranked.evidence else { return nil }
        var notes: [Finding] = []
        if best.date.isAmbiguous {
            notes.append(
                Finding(
                    .ambiguousDate, field: .date,
                    "date \(best.date) is ambiguous (day and month both ≤ 12), read \(monthFirst ? "month first" : "day first") from the currency"
                ))
        }
        let confidence = evidence.probability * (best.date.isAmbiguous ? 0.7 : 1)
        let field = ExtractedField(value: best.date, confidence: confidence, sourceLines: [best.lineIndex])
        return (field, notes, evidence)
    }

    /// Every valid date printed on `line` with the pattern that read it; `monthFirst` orders ambiguous numeric dates.
    static func dates(on line: ReceiptLine, monthFirst: Bool)
        -> [(date: ReceiptDate, pattern: Pattern, hasTwoDigitYear: Bool)]
    {
        let text = separatingGluedTimes(fixingDigitLookalikes(line.text.uppercased()))
        let range = NSRange(text.startIndex..., in: text)
        return patterns.flatMap { pattern in
            pattern.regex.matches(in: text, range: range).compactMap { match -> (ReceiptDate, Pattern, Bool)? in
                let parts = pattern.groups.map { group -> String in
                    guard let r = Range(match.range(at: group), in: text) else { return "" }
                    return String(text[r])
                }
                return makeDate(parts: parts, order: pattern.order, monthFirst: monthFirst)
                    .map { ($0, pattern, parts.last?.count == 2) }
            }
        }
    }

    /// Builds a valid date from the matched parts, or nil.
    static func makeDate(parts: [String], order: Pattern.Order, monthFirst: Bool) -> ReceiptDate? {
        func year(_ text: String) -> Int? {
            guard let value = Int(text) else { return nil }
            if text.count == 2 { return value <= 40 ? 2000 + value : 1900 + value }
            return value
        }
        func monthNumber(_ text: String) -> Int? { monthNames[String(text.prefix(3))] }
        var day: Int?
        var month: Int?
        var yearValue: Int?
        var isAmbiguous = false
        switch order {
        case .yearMonthDay:
            (yearValue, month, day) = (year(parts[0]), Int(parts[1]), Int(parts[2]))
        case .dayMonthYear:
            guard var first = Int(parts[0]), var second = Int(parts[1]) else { return nil }
            if first > 31 { first = repairedLeadingDigit(first, limit: 31) ?? first }
            if second > 31 { second = repairedLeadingDigit(second, limit: 31) ?? second }
            yearValue = year(parts[2])
            if first > 12 {
                (day, month) = (first, second)
            } else if second > 12 {
                (day, month) = (second, first)
            } else {
                isAmbiguous = first != second
                (day, month) = monthFirst ? (second, first) : (first, second)
            }
        case .dayNameYear:
            (day, month, yearValue) = (Int(parts[0]), monthNumber(parts[1]), year(parts[2]))
        case .nameDayYear:
            (month, day, yearValue) = (monthNumber(parts[0]), Int(parts[1]), year(parts[2]))
        }
        if let value = day, value > 31 { day = repairedLeadingDigit(value, limit: 31) }
        if let value = yearValue, value > 2035, value < 3000 { yearValue = repairedYear(value) }
        guard let day, let month, let yearValue, (1990...2035).contains(yearValue) else { return nil }
        return ReceiptDate(calendarYear: yearValue, month: month, day: day, isAmbiguous: isAmbiguous)
    }

    /// A year like `2617` or `2044` is `2017` or `2014` with one digit misread; nil when no single fix gives 2000–2035.
    static func repairedYear(_ value: Int) -> Int? {
        let lookalikes: [Character: [Character]] = [
            "6": ["0"], "4": ["1"], "7": ["1"], "8": ["0"], "9": ["0"], "3": ["1"], "5": ["1"],
        ]
        let digits = Array(String(value))
        for position in 1..<digits.count {
            for replacement in lookalikes[digits[position]] ?? [] {
                var changed = digits
                changed[position] = replacement
                if let year = Int(String(changed)), (2000...2035).contains(year) { return year }
            }
        }
        return nil
    }

    /// A day like `69` or `45` is `09` or `15` with the tens digit misread (6/0, 4/1, 7/1, 8/0, 9/0).
    static func repairedLeadingDigit(_ value: Int, limit: Int) -> Int? {
        let tens: [Int: [Int]] = [4: [1], 5: [3], 6: [0], 7: [1], 8: [0, 3], 9: [0]]
        let units = value % 10
        return tens[value / 10]?.map { $0 * 10 + units }.first { (1...limit).contains($0) }
    }

    /// `14/05/201812:14:08`, `19-SEP-20157:23:34P`, `18:1524/05/18`: a date and a time read as one word (PP-OCR
    /// joins neighbouring words) get a space between them, so that the year ends where the time starts. The text is
    /// upper case; a year counts when a date separator or a month name's letter comes before it.
    static func separatingGluedTimes(_ text: String) -> String {
        gluedTimes.reduce(text) { text, glued in
            glued.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1 ")
        }
    }

    /// A year run into the time after it, and a time run into the date after it (compiled once: every line of every
    /// page is read with them).
    private static let gluedTimes = [
        #"(?<=[/\-.A-Z ])((?:19|20)\d{2})(?=\d{1,2}:\d{2})"#,
        #"(?<!\d)(\d{1,2}:\d{2})(?=\d{1,2}[/\-.]\d{1,2}[/\-.]\d{2})"#,
    ].compactMap { try? NSRegularExpression(pattern: $0) }

    /// Reads `O`, `l`, `I`, `|`, `S` as digits when they touch a digit and no letter (`2O18` → `2018`, `l2/05` → `12/05`, `OCT` unchanged).
    static func fixingDigitLookalikes(_ text: String) -> String {
        let characters = Array(text)
        var result = ""
        for (index, character) in characters.enumerated() {
            let previous = index > 0 ? characters[index - 1] : " "
            let next = index + 1 < characters.count ? characters[index + 1] : " "
            if let digit = character == "$" ? "5" : AmountParser.digitLookalikes[character], character != "D",
                character != "B",
                previous.isASCIIDigit || next.isASCIIDigit,
                !previous.isLetter, !next.isLetter
            {
                result.append(digit)
            } else {
                result.append(character)
            }
        }
        return result
    }
}
