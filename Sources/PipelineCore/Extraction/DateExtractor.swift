import Foundation

/// Finds the purchase date: numeric and month-name forms, OCR digit slips fixed, day/month order from the locale.
enum DateExtractor {
    /// Abbreviations of month names in English, German, French, Spanish, Italian, Dutch, Portuguese and Polish
    /// (Polish in the genitive a date prints), folded (`MÄRZ` → `MARZ`, `AOÛT` → `AOUT`): where a date's month word
    /// starts (`monthWord`).
    static let monthNames: [String: Int] = {
        let names: [[String]] = [
            ["JAN", "JANV", "ENE", "GEN", "STY"], ["FEB", "FEV", "LUT"], ["MAR", "MRT", "MAART"],
            ["APR", "AVR", "ABR", "KWI"], ["MAY", "MAI", "MAG", "MEI", "MAJ"], ["JUN", "JUIN", "GIU", "CZE"],
            ["JUL", "JUIL", "LUG", "LIP"], ["AUG", "AOU", "AGO", "SIE"], ["SEP", "SET", "WRZ"],
            ["OCT", "OKT", "OTT", "OUT", "PAZ"], ["NOV", "LIS"], ["DEC", "DEZ", "DIC", "GRU"],
        ]
        return Dictionary(
            uniqueKeysWithValues: names.enumerated().flatMap { month, keys in keys.map { ($0, month + 1) } })
    }()

    /// The month a (folded, upper-case) word names, or nil: an abbreviation (`MRT`), or the start of a month's full
    /// name, three letters or more (`SEPT`, `NOVEMBRE`, `APRI` cut short). A word that only starts like one names
    /// none: `MARCOS 02,22/2014` is a server's name, `AUGUSTA`, `MARKET` and `JUNCTION` are places.
    static func month(named word: String) -> Int? {
        if let month = monthNames[word] { return month }
        guard word.count >= 3 else { return nil }
        let months = fullMonthNames.filter { names in names.value.contains { $0.hasPrefix(word) } }.keys
        return months.count == 1 ? months.first : nil  // `JUI` starts `JUIN` and `JUILLET`
    }

    /// Full month names in the abbreviations' languages and in Malay and Indonesian, folded, by month.
    private static let fullMonthNames: [Int: [String]] = [
        1: ["JANUARY", "JANUAR", "JANNER", "JANVIER", "ENERO", "GENNAIO", "JANUARI", "JANEIRO", "STYCZNIA"],
        2: ["FEBRUARY", "FEBRUAR", "FEVRIER", "FEBRERO", "FEBBRAIO", "FEBRUARI", "FEVEREIRO", "LUTEGO"],
        3: ["MARCH", "MARZ", "MARS", "MARZO", "MAART", "MARCO", "MARET", "MARCA"],
        4: ["APRIL", "AVRIL", "ABRIL", "APRILE", "KWIETNIA"],
        5: ["MAY", "MAI", "MAYO", "MAGGIO", "MEI", "MAIO", "MAJA"],
        6: ["JUNE", "JUNI", "JUIN", "JUNIO", "GIUGNO", "JUNHO", "CZERWCA"],
        7: ["JULY", "JULI", "JULAI", "JUILLET", "JULIO", "LUGLIO", "JULHO", "LIPCA"],
        8: ["AUGUST", "AUGUSTUS", "AGUSTUS", "AOUT", "AGOSTO", "SIERPNIA"],
        9: ["SEPTEMBER", "SEPTEMBRE", "SEPTIEMBRE", "SETIEMBRE", "SETTEMBRE", "SETEMBRO", "WRZESNIA"],
        10: ["OCTOBER", "OKTOBER", "OCTOBRE", "OCTUBRE", "OTTOBRE", "OUTUBRO", "PAZDZIERNIKA"],
        11: ["NOVEMBER", "NOVEMBRE", "NOVIEMBRE", "NOVEMBRO", "LISTOPADA"],
        12: ["DECEMBER", "DEZEMBER", "DECEMBRE", "DICIEMBRE", "DICEMBRE", "DEZEMBRO", "DESEMBER", "GRUDNIA"],
    ]

    /// A word starting with a month's abbreviation (`NOV`, `NOVEMBER`), for the patterns: another word in its place
    /// (`CLOSED`) must not take the day before it (`CLOSED 23 NOV 17`). Whether it names a month is
    /// `month(named:)`'s to say (`MARCOS` does not).
    private static let monthWord = "(?:" + monthNames.keys.sorted().joined(separator: "|") + ")[A-Z]*"

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

    /// A two-digit year is never followed by `:` and a digit: that is the hour of a time (`18 Feb 14 13:04` is
    /// 18 February 2014, not 14 February 2013).
    static let patterns: [Pattern] = [
        (
            #"(?<!\d)(\d{4})\s?([/\-.])\s?(\d{1,2})\s?\2\s?(\d{1,2})(?!\d)"#, Pattern.Order.yearMonthDay, [1, 3, 4],
            false
        ),
        (
            #"(?<!\d)(\d{1,2})\s?([/\-.])\s?(\d{1,2})\s?\2\s?(\d{4}|\d{2}(?!:\d))(?!\d)"#, .dayMonthYear, [1, 3, 4],
            false
        ),
        (#"(?<!\d)(\d{2})(\d{2})[/\-.](\d{4})(?!\d)"#, .dayMonthYear, [1, 2, 3], false),
        (
            #"(?<!\d)(\d{1,2})\s?[\-/. ]?\s?(\#(monthWord))\.?\s?[\-/., ]?\s?'?(\d{4}|\d{2}(?!:\d))(?!\d)"#,
            .dayNameYear,
            [1, 2, 3], false
        ),
        (
            #"(?<![A-Z])(\#(monthWord))\.?\s?[\-/. ]?\s?(\d{1,2})(?:ST|ND|RD|TH)?\s?[,\-/. ']?\s?'?(\d{4}|\d{2}(?!:\d))(?!\d)"#,
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
        /// Every print of it was read with a digit repaired: a letter taken for the digit it looks like (`201o`,
        /// `O4/05`), a day's or year's digit fixed (`69`, `2617`). A misread month's letters (`JU1`) do not count.
        var isRepaired = false
    }

    /// Every distinct date on the page with its features: the words on its line (`DATE`, a time, `EXP`), the
    /// pattern it was read with, where it is and how often it is printed. Weights are fitted (`ExtractionModel.date`).
    static func candidates(lines: [ReceiptLine], monthFirst: Bool) -> [Candidate] {
        var byDate: [ReceiptDate: Candidate] = [:]
        var order: [ReceiptDate] = []
        let lineCount = Double(max(1, lines.count))
        for line in lines {
            let text = fixingDigitLookalikes(KeywordLexicon.folded(line.text))
            for (date, pattern, hasTwoDigitYear, isRepaired) in dates(on: line, monthFirst: monthFirst) {
                let namesDate =
                    line.tokens.contains("DATE") || line.tokens.contains("TARIKH") || line.tokens.contains("DT")
                if pattern.isCompact, !namesDate { continue }
                var features: CandidateFeatures<DateFeature> = [
                    .position: Double(line.index) / lineCount, .ocrConfidence: digitConfidence(of: line),
                ]
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
                    existing.isRepaired = existing.isRepaired && isRepaired
                    existing.features[.repeats] = min(2, (existing.features[.repeats] ?? 0) + 1)
                    byDate[key] = existing
                } else {
                    byDate[key] = Candidate(
                        date: date, lineIndex: line.index, features: features, isRepaired: isRepaired)
                    order.append(key)
                }
            }
        }
        return order.compactMap { byDate[$0] }
    }

    /// The lowest confidence of the line's words that hold a digit, 0–1 (the date's digits are among them).
    static func digitConfidence(of line: ReceiptLine) -> Double {
        (line.words.filter { $0.text.contains(where: \.isNumber) }.map(\.confidence).min() ?? 0) / 100
    }

    /// The best-ranked date. Day and month of a numeric date that reads both ways are ordered by the page's country
    /// evidence; the date stays flagged ambiguous (`ReceiptDate.isAmbiguous`) only when nothing on the page decided.
    static func extract(lines: [ReceiptLine], country: CountryEvidence, model: ExtractionModel)
        -> (ExtractedField<ReceiptDate>, [Finding], CandidateEvidence<DateFeature>)?
    {
        let ranked = RankedCandidates(
            candidates(lines: lines, monthFirst: country.isMonthFirst), features: \.features, weights: model.date)
        guard var best = ranked.best, let evidence = ranked.evidence else { return nil }
        var notes: [Finding] = []
        if best.date.isAmbiguous {
            let order = country.isMonthFirst ? "month first" : "day first"
            notes.append(
                Finding(
                    country.isDecided ? .readingNote : .ambiguousDate, field: .date,
                    "date \(best.date) reads both ways (day and month both ≤ 12): read \(order) from \(country.reason)")
            )
            best.date.isAmbiguous = !country.isDecided
        }
        if let twin = misreadTwin(of: best, among: ranked.candidates, lines: lines) {
            notes.append(
                Finding(
                    .datesDisagree, field: .date,
                    "the page prints \(best.date) and \(twin.date) at the same time of day: one of them is misread;"
                        + " check the date"))
        }
        if best.isRepaired {
            notes.append(
                Finding(
                    .dateRepaired, field: .date,
                    "the date \(best.date) was read with a digit repaired (a letter taken for the digit it looks like,"
                        + " or a digit fixed): check it on the receipt"))
        }
        let confidence = evidence.probability * (best.date.isAmbiguous ? 0.7 : 1)
        let field = ExtractedField(value: best.date, confidence: confidence, sourceLines: [best.lineIndex])
        return (field, notes, evidence)
    }

    /// Another date on the page one digit apart from `best`'s and printed with the same time of day (within
    /// `sameMomentMinutes`): the page prints one moment twice and OCR misread a digit of one of them (`Date
    /// 19/03/2017 03:00:42PM` above `Print Date: 13/03/2017 03:00:44PM`), so which is right is for a person to say.
    /// Two dates apart by more, or at other times (an order and its due date), are two dates; one line is one date.
    static func misreadTwin(of best: Candidate, among candidates: [Candidate], lines: [ReceiptLine]) -> Candidate? {
        func minuteOfDay(_ lineIndex: Int) -> Int? {
            guard let text = lines.first(where: { $0.index == lineIndex })?.text,
                let range = text.range(of: #"(?<!\d)\d{1,2}:\d{2}(?!\d)"#, options: .regularExpression)
            else { return nil }
            let parts = text[range].split(separator: ":").compactMap { Int($0) }
            return parts.count == 2 ? parts[0] * 60 + parts[1] : nil
        }
        func digits(_ date: ReceiptDate) -> [Character] {
            Array(String(format: "%04d%02d%02d", date.year, date.month, date.day))
        }
        guard let time = minuteOfDay(best.lineIndex) else { return nil }
        return candidates.first { other in
            // Another line: one line read two ways (`10 Mar 2018 18:24` is also `Mar 20 18`) prints one date.
            guard other.lineIndex != best.lineIndex, let otherTime = minuteOfDay(other.lineIndex),
                abs(otherTime - time) <= sameMomentMinutes
            else { return false }
            return zip(digits(best.date), digits(other.date)).filter { $0 != $1 }.count == 1
        }
    }

    /// Times of day this close print one moment (a receipt's date and its print time, seconds apart).
    static let sameMomentMinutes = 2

    /// Numeric day-month-year dates on the page that read only one way: how many put the day first (`13/02/2015`)
    /// and how many the month (`02/13/2015`). Evidence for the order of the page's other dates.
    static func orderVotes(lines: [ReceiptLine]) -> (dayFirst: Int, monthFirst: Int) {
        var votes = (dayFirst: 0, monthFirst: 0)
        for line in lines {
            for (parts, pattern) in matches(on: line) where pattern.order == .dayMonthYear {
                guard let first = Int(parts[0]), let second = Int(parts[1]), (1...daysInALongMonth).contains(first),
                    (1...daysInALongMonth).contains(second),
                    makeDate(parts: parts, order: pattern.order, monthFirst: false) != nil
                else { continue }
                if first > 12, second <= 12 { votes.dayFirst += 1 }
                if second > 12, first <= 12 { votes.monthFirst += 1 }
            }
        }
        return votes
    }

    /// Every valid date printed on `line` with the pattern that read it and whether reading it took a repaired digit
    /// (`Candidate.isRepaired`); `monthFirst` orders ambiguous numeric dates.
    static func dates(on line: ReceiptLine, monthFirst: Bool)
        -> [(date: ReceiptDate, pattern: Pattern, hasTwoDigitYear: Bool, isRepaired: Bool)]
    {
        let found = matches(on: line)
        guard !found.isEmpty else { return [] }
        let asPrinted = Set(printedDates(in: line.text, repairing: false).map(\.parts))
        return found.compactMap { parts, pattern in
            makeDate(parts: parts, order: pattern.order, monthFirst: monthFirst)
                .map {
                    (
                        $0, pattern, parts.last?.count == 2,
                        !asPrinted.contains(parts) || hasDigitRepaired(parts, pattern)
                    )
                }
        }
    }

    /// Whether `makeDate` repairs a misread digit of these parts to make a date of them: a day over
    /// `daysInALongMonth` (`69` for `09`) or a four-digit year past `years` (`2617` for `2017`).
    static func hasDigitRepaired(_ parts: [String], _ pattern: Pattern) -> Bool {
        let numbers = parts.compactMap { Int($0) }
        let (days, year): ([Int], String) =
            switch pattern.order {
            case .yearMonthDay: (Array(numbers.dropFirst()), parts[0])
            case .dayMonthYear: (Array(numbers.dropLast()), parts[2])
            case .dayNameYear: ([Int(parts[0]) ?? 0], parts[2])
            case .nameDayYear: ([Int(parts[1]) ?? 0], parts[2])
            }
        return days.contains { $0 > daysInALongMonth } || (year.count == 4 && (Int(year) ?? 0) > years.upperBound)
    }

    /// The parts of every date-shaped match on `line` (folded, look-alike digits read as digits, a glued time split
    /// off), with the pattern that matched.
    static func matches(on line: ReceiptLine) -> [(parts: [String], pattern: Pattern)] {
        printedDates(in: line.text).map { ($0.parts, $0.pattern) }
    }

    /// The parts of every date-shaped match in a line's `text`, as `matches(on:)` reads them, with the pattern and
    /// the matched text as read (`27-MAR-18`): what `DateForm` learns a merchant's date form from. Not `repairing`,
    /// letters stay letters (`201O` is no date): what `dates(on:)` tells a repaired date by.
    static func printedDates(in text: String, repairing: Bool = true)
        -> [(parts: [String], pattern: Pattern, printed: String)]
    {
        let months = readingApostropheColons(readingMisreadMonths(KeywordLexicon.folded(text)))
        let text = separatingGluedTimes(repairing ? fixingDigitLookalikes(readingMisreadDays(months)) : months)
        let range = NSRange(text.startIndex..., in: text)
        return patterns.flatMap { pattern in
            pattern.regex.matches(in: text, range: range).map { match in
                let parts = pattern.groups.map { group -> String in
                    guard let r = Range(match.range(at: group), in: text) else { return "" }
                    return String(text[r])
                }
                return (parts, pattern, Range(match.range, in: text).map { String(text[$0]) } ?? "")
            }
        }
    }

    /// The years a receipt's date is read in; a later four-digit year is a misread digit (`repairedYear`).
    static let years = 1990...2035
    /// The most days a month has; a larger day is a misread tens digit (`repairedLeadingDigit`).
    static let daysInALongMonth = 31

    /// Builds a valid date from the matched parts, or nil.
    static func makeDate(parts: [String], order: Pattern.Order, monthFirst: Bool) -> ReceiptDate? {
        func year(_ text: String) -> Int? {
            guard let value = Int(text) else { return nil }
            if text.count == 2 { return value <= 40 ? 2000 + value : 1900 + value }
            return value
        }
        func monthNumber(_ text: String) -> Int? { DateExtractor.month(named: text) }
        var day: Int?
        var month: Int?
        var yearValue: Int?
        var isAmbiguous = false
        switch order {
        case .yearMonthDay:
            (yearValue, month, day) = (year(parts[0]), Int(parts[1]), Int(parts[2]))
        case .dayMonthYear:
            guard var first = Int(parts[0]), var second = Int(parts[1]) else { return nil }
            if first > daysInALongMonth { first = repairedLeadingDigit(first, limit: daysInALongMonth) ?? first }
            if second > daysInALongMonth { second = repairedLeadingDigit(second, limit: daysInALongMonth) ?? second }
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
        if let value = day, value > daysInALongMonth { day = repairedLeadingDigit(value, limit: daysInALongMonth) }
        if let value = yearValue, value > years.upperBound, value < 3000 { yearValue = repairedYear(value) }
        guard let day, let month, let yearValue, years.contains(yearValue) else { return nil }
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
                if let year = Int(String(changed)), (2000...years.upperBound).contains(year) { return year }
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

    /// `14/05/201812:14:08`, `19-SEP-20157:23:34P`, `18:1524/05/18`, `14-11-1908:43`, `2023-04-2407:26`: a date and a
    /// time read as one word (PP-OCR joins neighbouring words) get a space between them, so that the year (or the day
    /// of a year-first date) ends where the time starts. The text is upper case; a year counts when a date separator
    /// or a month name's letter comes before it. A fifth digit glued after a year that a date separator starts, with
    /// a time after a space (`24-09-20241 19:29`), is a stray mark or the hour's first digit: it is split off the year.
    static func separatingGluedTimes(_ text: String) -> String {
        gluedTimes.reduce(text) { text, glued in
            glued.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1 ")
        }
    }

    /// A year run into the time after it or into a stray digit before the time, and a time run into the date after
    /// it (compiled once: every line of every page is read with them).
    private static let gluedTimes = [
        #"(?<=[/\-.A-Z ])((?:19|20)\d{2})(?=\d{1,2}:\d{2})"#,
        #"(?<=[/\-.])((?:19|20)\d{2})(?=\d\s+\d{1,2}:\d{2})"#,
        #"(?<!\d)(\d{1,2}:\d{2})(?=\d{1,2}[/\-.]\d{1,2}[/\-.]\d{2})"#,
        #"(?<!\d)(\d{1,2}([/\-.])\d{1,2}\2\d{2})(?=[0-2]\d:[0-5]\d)"#,
        #"(?<!\d)((?:19|20)\d{2}([/\-.])\d{1,2}\2\d{2})(?=[0-2]?\d:[0-5]\d)"#,
    ].compactMap { try? NSRegularExpression(pattern: $0) }

    /// `JU1`, `0EC`, `5EP`: a month's three letters with some read as look-alike digits (`AmountParser`'s table, read
    /// backwards), right before a day and year (`JU103'12`, `JU1/15/2017`) or between them (`270EC'16`), read as that
    /// month. A word that reads as no month, or as two, is left as it is.
    static func readingMisreadMonths(_ text: String) -> String {
        var text = text
        for regex in misreadMonthPlaces {
            let found = regex.matches(in: text, range: NSRange(text.startIndex..., in: text))
            for match in found.reversed() {
                guard let range = Range(match.range(at: 1), in: text),
                    let month = monthReading(of: String(text[range]))
                else { continue }
                text.replaceSubrange(range, with: month)
            }
        }
        return text
    }

    /// The one three-letter month name `word` reads as with its digits taken for the letters they look like.
    private static func monthReading(of word: String) -> String? {
        guard word.contains(where: \.isASCIIDigit), word.contains(where: \.isLetter) else { return nil }
        let readings = word.reduce([""]) { readings, character in
            let letters = lettersLookingLike[character] ?? [character]
            return readings.flatMap { reading in letters.map { reading + String($0) } }
        }
        let months = readings.filter { monthNames[$0] != nil }
        return months.count == 1 ? months[0] : nil
    }

    /// Upper-case letters by the digit OCR reads them as (`0`: `O`, `D`, `Q`).
    private static let lettersLookingLike: [Character: [Character]] = Dictionary(
        grouping: AmountParser.digitLookalikes.compactMap { letter, digit in
            Character(letter.uppercased()).isLetter ? (digit, Character(letter.uppercased())) : nil
        },
        by: \.0
    ).mapValues { Array(Set($0.map(\.1))) }

    /// A three-character word before a day and year, and one between a day and a year.
    private static let misreadMonthPlaces = [
        #"(?<![A-Z0-9])([A-Z0-9]{3})(?=[/\-. ]?\d{1,2}[/\-.,' ]\s?'?(?:\d{4}|\d{2})(?!\d))"#,
        #"(?<=\d)([A-Z0-9]{3})(?=[/\-. ]?'?(?:\d{4}|\d{2})(?!\d))"#,
    ].compactMap { try? NSRegularExpression(pattern: $0) }

    /// `JUNO3'14`, `APRI1'17`: a month's abbreviation glued to a day whose first digit was read as the letter it
    /// looks like (`O`, `I`), read as `JUN03'14`, `APR11'17` (`JUNO` names no month, `month(named:)`).
    static func readingMisreadDays(_ text: String) -> String {
        var text = text
        for match in (misreadDay?.matches(in: text, range: NSRange(text.startIndex..., in: text)) ?? []).reversed() {
            guard let range = Range(match.range(at: 1), in: text) else { continue }
            text.replaceSubrange(range, with: text[range] == "O" ? "0" : "1")
        }
        return text
    }

    /// A three-letter month abbreviation with no day before it, then `O` or `I` and one digit, then no digit
    /// (`JUNO3'14`; not `MAIO2019`, nor `2 AVRI1 2022`, where the day came first and `I1` is `IL`).
    private static let misreadDay = try? NSRegularExpression(
        pattern: "(?<![A-Z0-9])(?<!\\d )(?:" + monthNames.keys.filter { $0.count == 3 }.sorted().joined(separator: "|")
            + ")([OI])(?=\\d(?!\\d))")

    /// `APR01:18 12:11P`: a point-of-sale printer's `APR01'18` (day, apostrophe, two-digit year) with the apostrophe
    /// read as a colon, told from a time by the month glued before it and the time after it.
    static func readingApostropheColons(_ text: String) -> String {
        var text = text
        let found = apostropheColon?.matches(in: text, range: NSRange(text.startIndex..., in: text)) ?? []
        for match in found.reversed() {
            guard let name = Range(match.range(at: 1), in: text), monthNames[String(text[name])] != nil,
                let colon = Range(match.range(at: 2), in: text)
            else { continue }
            text.replaceSubrange(colon, with: "'")
        }
        return text
    }

    private static let apostropheColon = try? NSRegularExpression(
        pattern: #"(?<![A-Z0-9])([A-Z]{3})\d{2}(:)\d{2}(?=\s+\d{1,2}:\d{2})"#)

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
