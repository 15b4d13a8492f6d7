import Foundation

/// A money amount read from OCR text.
public struct ParsedAmount: Sendable, Equatable {
    /// The value; negative for `(1.00)`, `-1.00` and `1.00-`.
    public var value: Decimal
    /// The number had an explicit decimal part (`12.50`, `12,50`), not a bare integer (`1250`).
    public var hasDecimals: Bool
    /// Letters were read as digits (`O`→0, `S`→5, `l`→1) or a space split the decimals.
    public var isOCRCorrected: Bool
    /// The separator could be a decimal or a thousands mark (`1,234` / `1.234`); read as thousands.
    public var isAmbiguous: Bool
    /// The mark between the thousands groups of a whole number (`,` in `29,000`, `.` in `1.250.000`, a space in
    /// `25 000`): money in a currency without minor units where the page prints its money so (`ReceiptPage`); nil
    /// for any other number.
    public var wholeGroupMark: Character?

    public init(
        value: Decimal, hasDecimals: Bool, isOCRCorrected: Bool = false, isAmbiguous: Bool = false,
        wholeGroupMark: Character? = nil
    ) {
        self.value = value
        self.hasDecimals = hasDecimals
        self.isOCRCorrected = isOCRCorrected
        self.isAmbiguous = isAmbiguous
        self.wholeGroupMark = wholeGroupMark
    }
}

/// Parses money amounts the way receipts print them, with `Decimal` only.
///
/// Accepts `.` or `,` decimals, `,`/`.`/space/`'` thousands separators, currency symbols and codes around the
/// number, trailing or parenthesized minus signs, and OCR letter/digit confusions inside a numeric token.
public enum AmountParser {
    /// Currency symbols and codes that may prefix or suffix an amount (with OCR's usual readings of `RM`).
    static let currencyAffixes = [
        "RM", "MYR", "RN", "RH", "FM", "USD", "US$", "AU$", "A$", "C$", "CA$", "S$", "SGD", "EUR", "GBP", "CAD", "AUD",
        "CHF", "AED",
        "INR", "RS.", "RS", "IDR", "RP", "PLN", "ZŁ", "ZL", "THB", "$", "€", "£", "¥", "₹", "฿",
    ]

    /// Readings of `RM` that only ever come before the number (`PM` after one is a time of day).
    static let currencyPrefixMisreads = ["PM", "KM", "HM"]

    /// Letters OCR often reads in place of digits; applied only inside tokens that are mostly digits.
    static let digitLookalikes: [Character: Character] = [
        "O": "0", "o": "0", "D": "0", "Q": "0", "S": "5", "s": "5", "l": "1", "I": "1", "i": "1", "|": "1",
        "B": "8", "Z": "2", "z": "2", "G": "6",
    ]

    /// Parses one token (a word or a few words joined) as an amount, or nil when it is not one.
    public static func parse(_ token: String) -> ParsedAmount? {
        var text = withoutVATClass(token.trimmingCharacters(in: .whitespaces))
        var isNegative = false
        if text.hasPrefix("("), text.hasSuffix(")") {
            isNegative = true
            text = String(text.dropFirst().dropLast())
        }
        text = stripCurrency(text)
        if text.hasPrefix("-") {
            isNegative = true
            text.removeFirst()
        } else if text.hasSuffix("-") {
            isNegative = true
            text.removeLast()
        }
        text = stripCurrency(text)
        // "76..77" and "12,.50": a doubled mark is one mark.
        text = text.replacingOccurrences(of: "..", with: ".").replacingOccurrences(of: ",.", with: ".")
        // "124,00." at the end of a sentence-like line: the trailing mark is not part of the number.
        if let last = text.last, last == "." || last == ",", let trimmed = parse(String(text.dropLast())) {
            return isNegative
                ? ParsedAmount(
                    value: -trimmed.value, hasDecimals: trimmed.hasDecimals, isOCRCorrected: true,
                    wholeGroupMark: trimmed.wholeGroupMark) : trimmed
        }
        guard !text.isEmpty, text.count <= 16 else { return nil }
        let (digitsOnly, corrected) = replacingLookalikes(text)
        guard let digitsOnly, var amount = parseNumber(digitsOnly) else { return nil }
        amount.isOCRCorrected = amount.isOCRCorrected || corrected
        if isNegative { amount.value = -amount.value }
        return amount
    }

    /// `1,99A`, `5,69 D`, `0,75-B`: European receipts print the VAT class letter right after an amount with decimals;
    /// the letter is not part of the number (and `B` is not a misread `8` there).
    static func withoutVATClass(_ text: String) -> String {
        guard text.range(of: vatClassShape, options: .regularExpression) != nil else { return text }
        return String(text.dropLast()).trimmingCharacters(in: .whitespaces)
    }

    /// Digits, a decimal comma or point with two decimals, an optional trailing minus, then one class letter.
    static let vatClassShape = #"^[-(]?\d[\d.,' ]*[.,]\d{2}-?\s?[A-H]$"#

    /// Removes one currency symbol or code from either end, and stray `:`/`*`/`=` decorations.
    static func stripCurrency(_ text: String) -> String {
        var text = text.trimmingCharacters(in: decorations)
        let upper = text.uppercased()
        for affix in currencyAffixes {
            if upper.hasPrefix(affix), text.count > affix.count {
                text = String(text.dropFirst(affix.count))
                break
            }
            if upper.hasSuffix(affix), text.count > affix.count {
                text = String(text.dropLast(affix.count))
                break
            }
        }
        if let misread = currencyPrefixMisreads.first(where: { upper.hasPrefix($0) }), text.count > misread.count,
            text.dropFirst(misread.count).first?.isASCIIDigit == true
        {
            text = String(text.dropFirst(misread.count))
        }
        if let first = text.first, currencySignLetters.contains(first),
            text.dropFirst().range(of: amountWithDecimals, options: .regularExpression) != nil
        {
            text.removeFirst()
        }
        return text.trimmingCharacters(in: decorations)
    }

    /// `S7.10`, `B200.00`, `R288.40`: a currency sign that is a letter, glued to an amount with decimals — a `$` or `฿`
    /// read as `S` or `B`, or the rand's own `R`. The letter is the sign, not a look-alike digit: every such token on
    /// the train and dev pages (37, on 10 receipts) is a price: 36 with their sign, one an `@` read as `B`.
    static let currencySignLetters: Set<Character> = ["S", "B", "R"]

    /// Digits with separators and two decimals, the whole token.
    static let amountWithDecimals = #"^\d[\d.,']*[.,]\d{2}$"#

    /// Marks around numbers that carry no value: separators, quotes, OCR specks and dashes of a leader line.
    static let decorations = CharacterSet(charactersIn: ":*=#@~ —–«»‘’“”\"'|!_;")

    /// Replaces look-alike letters by digits when the token is otherwise numeric; nil when it is not.
    static func replacingLookalikes(_ text: String) -> (String?, Bool) {
        let digitCount = text.filter(\.isASCIIDigit).count
        guard digitCount > 0 else { return (nil, false) }
        var result = ""
        var corrected = false
        for character in text {
            if character.isASCIIDigit || character == "." || character == "," || character == " "
                || character == "'"
            {
                result.append(character)
            } else if let digit = digitLookalikes[character] {
                result.append(digit)
                corrected = true
            } else {
                return (nil, false)
            }
        }
        // A look-alike must be the minority: "SOS" is a word, "5O.00" is a number.
        if corrected, digitCount * 2 < result.filter(\.isASCIIDigit).count { return (nil, false) }
        return (result, corrected)
    }

    /// Parses digits with separators: the last separator followed by 1–3 digits is the decimal mark unless the
    /// grouping says thousands.
    static func parseNumber(_ text: String) -> ParsedAmount? {
        let text = text.replacingOccurrences(of: "'", with: "")
        var corrected = false
        var normalized = text
        // "12. 50" or "12 .50": OCR split the decimals.
        if normalized.contains(" ") {
            let compact = normalized.replacingOccurrences(of: " ", with: "")
            let parts = normalized.split(separator: " ")
            let splitsDecimals =
                parts.count == 2
                && (parts[0].hasSuffix(".") || parts[1].hasPrefix(".")
                    || parts[0].hasSuffix(",") || parts[1].hasPrefix(","))
            let groupsThousands = parts.dropFirst().allSatisfy { $0.count == 3 || $0.contains(".") || $0.contains(",") }
            guard splitsDecimals || groupsThousands else { return nil }
            corrected = splitsDecimals
            normalized = compact
        }
        let separators = normalized.enumerated().filter { $0.element == "." || $0.element == "," }
        guard normalized.first?.isASCIIDigit == true || normalized.first == "." || normalized.first == "," else {
            return nil
        }
        guard let last = separators.last else {
            guard let value = Decimal(string: normalized, locale: Locale(identifier: "en_US_POSIX")) else { return nil }
            // "25 000": groups of three after a leading group of one to three digits, not starting with a zero; the
            // pattern runs only on a number with a space in it.
            let spaceGrouped =
                text.contains(" ") && text.range(of: #"^[1-9]\d{0,2}( \d{3})+$"#, options: .regularExpression) != nil
            return ParsedAmount(
                value: value, hasDecimals: false, isOCRCorrected: corrected, wholeGroupMark: spaceGrouped ? " " : nil)
        }
        let characters = Array(normalized)
        let fraction = String(characters[(last.offset + 1)...])
        let integerPart = String(characters[..<last.offset])
        let integerDigits = integerPart.filter(\.isASCIIDigit)
        guard fraction.allSatisfy(\.isASCIIDigit) else { return nil }
        let otherSeparators = separators.dropLast()
        let groupingIsThousands = otherSeparators.allSatisfy { $0.element != last.element }
        var isAmbiguous = false
        var decimalMark = true
        if fraction.count == 3 {
            // "1,234" and "1.234": thousands unless another mark already took that role ("1.234,5" is impossible here).
            if otherSeparators.isEmpty {
                isAmbiguous = true
                decimalMark = false
            } else {
                decimalMark = groupingIsThousands
            }
        } else if fraction.isEmpty || fraction.count > 3 {
            return nil
        } else if !otherSeparators.isEmpty, !groupingIsThousands {
            return nil
        }
        // Thousands groups must have 3 digits each.
        let groups = integerPart.split(whereSeparator: { $0 == "." || $0 == "," })
        if groups.count > 1, groups.dropFirst().contains(where: { $0.count != 3 }) { return nil }
        let digits = decimalMark ? integerDigits + "." + fraction : integerDigits + fraction
        guard !integerDigits.isEmpty || decimalMark,
            let value = Decimal(
                string: integerDigits.isEmpty ? "0" + digits : digits, locale: Locale(identifier: "en_US_POSIX"))
        else { return nil }
        let isGroupedWhole = !decimalMark && integerPart.first.map { $0 != "0" } == true
        return ParsedAmount(
            value: value, hasDecimals: decimalMark, isOCRCorrected: corrected, isAmbiguous: isAmbiguous,
            wholeGroupMark: isGroupedWhole ? last.element : nil)
    }
}

extension Character {
    /// True for `0`–`9` only (not other Unicode digits).
    var isASCIIDigit: Bool { isASCII && isNumber }
}
