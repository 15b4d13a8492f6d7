import Foundation

/// Which words of a line belong to a name: scraps, lead-ins, registration numbers and contact details dropped,
/// misread legal suffixes and letters read as digits spelled right.
extension MerchantExtractor {
    /// The words of a line that can belong to a name: unsure scraps at either end (logo noise such as `ee`, `|`),
    /// and everything from a registration number or after a legal suffix on
    /// (`(417940-M)`, `862725-U`, `SDN BHD (JALAN …)`) are dropped; misread legal suffixes are spelled right.
    static func nameWords(_ words: [OCRWord]) -> [OCRWord] {
        func isScrap(_ word: OCRWord) -> Bool {
            guard !terminalSuffixes.contains(word.text.uppercased()) else { return false }
            let letters = word.text.filter(\.isLetter).count
            let isWordLike = letters > 0 && word.text.allSatisfy { $0.isLetter || "'’-.&".contains($0) }
            // Tesseract often scores a real word in a stylized font low, even 0 (`GREEN LANE PHARMACY`): long words
            // stay, and capitalized ones stay at any score.
            let isLongWord = isWordLike && letters >= 4
            let isCapitalized = word.text.first?.isUppercase == true
            let digits = word.text.filter(\.isNumber).count
            return letters == 0 && (digits == 0 || word.text.count <= 2 && word.confidence < 70)
                || word.confidence < 60 && !isWordLike && (word.text.count <= 3 || letters * 2 < word.text.count)
                || word.confidence < 20 && !isLongWord
                || word.confidence < 10 && !(isLongWord && isCapitalized)
                || letters <= 2 && word.confidence < 40 && !word.text.contains(where: \.isUppercase)
        }
        var kept = Array(correctingLegalSuffixes(words).map(readingDigitsAsLetters).drop(while: isScrap))
        while let last = kept.last, isScrap(last) { kept.removeLast() }
        if let cut = kept.indices.dropFirst().first(where: {
            isRegistrationNumber(kept[$0].text)
                || contactWords.contains(kept[$0].text.uppercased().trimmingCharacters(in: .punctuationCharacters))
        }) {
            kept = Array(kept[..<cut])
            while let last = kept.last, isScrap(last) { kept.removeLast() }
        }
        if let last = kept.indices.dropLast().first(where: { terminalSuffixes.contains(kept[$0].text.uppercased()) }) {
            kept = Array(kept[...last])
        }
        return kept
    }

    /// `E1 Farol`, `IL10'S`, `0'Brlens`: in a word that starts with a letter, or with the `O'` of an Irish name,
    /// `0`, `1` and `5` are misread `O`, `I`/`l` and `S` (store numbers such as `#0994` and words of digits only stay
    /// as they are). A word read so counts as unsure (confidence ≤ 60), so that logo noise such as `O1F` does not
    /// pass for a real word.
    static func readingDigitsAsLetters(_ word: OCRWord) -> OCRWord {
        let text = word.text
        let startsAnIrishName = text.count > 3 && ["0'", "0’"].contains(String(text.prefix(2)))
        guard text.first?.isLetter == true || startsAnIrishName, text.contains(where: { "015".contains($0) }),
            text.allSatisfy({ $0.isLetter || "015'’-.&".contains($0) })
        else { return word }
        let isUpperCase = !text.contains(where: \.isLowercase)
        var read = word
        read.confidence = min(word.confidence, 60)
        read.text = String(
            text.map { character -> Character in
                switch character {
                case "0": "O"
                case "1": isUpperCase ? "I" : "l"
                case "5": "S"
                default: character
                }
            })
        return read
    }

    /// Legal suffixes that end a company name.
    static let terminalSuffixes: Set<String> = [
        "BHD", "BHD.", "S/B", "LTD", "LTD.", "INC", "INC.", "LLC", "GMBH", "PLC", "S.L.", "S.A.", "S.L", "S.A",
        "S.R.L.", "B.V.",
    ]

    /// `SIN BHD`, `SUN BED`, `5DN BHD`, `S/R`: the Malaysian suffixes as Tesseract often misreads them.
    static func correctingLegalSuffixes(_ words: [OCRWord]) -> [OCRWord] {
        var words = words
        for index in words.indices {
            let text = words[index].text.uppercased()
            let next = index + 1 < words.count ? words[index + 1].text.uppercased() : nil
            if let next, misreadSDN.contains(text),
                misreadBHD.contains(next.trimmingCharacters(in: .punctuationCharacters))
            {
                words[index].text = "SDN"
                words[index + 1].text = "BHD"
                // "(M)" for Malaysia, read as "(4)" or "(H)".
                if index > 0, words[index - 1].text.count == 3, words[index - 1].text.hasPrefix("("),
                    words[index - 1].text.hasSuffix(")")
                {
                    words[index - 1].text = "(M)"
                }
            } else if next == nil || next?.hasPrefix("(") == true || next.map(isRegistrationNumber) == true,
                misreadSB.contains(text)
            {
                words[index].text = "S/B"
            } else if index > 0, misreadSL.contains(text) {
                words[index].text = "S.L."
            }
        }
        return words
    }

    static let misreadSDN: Set<String> = ["SDN", "SIN", "SUN", "SEN", "SON", "S0N", "5DN", "SDN."]
    static let misreadBHD: Set<String> = ["BHD", "BED", "BH", "BND", "8HD", "BHO", "BHP"]
    static let misreadSB: Set<String> = ["S/B", "S/R", "5/8", "S/8", "5/B", "$/B"]
    /// The Spanish `S.L.` after a name, as read: `8.L.`, `5.L.`.
    static let misreadSL: Set<String> = ["8.L.", "5.L.", "$.L."]

    /// Words after which a name line carries contact details (`Subway#15936-0 Phone 608-…`).
    static let contactWords: Set<String> = ["PHONE", "TEL", "FAX", "PH", "TELEPHONE"]

    /// `(417940-M)`, `862725-U`, `(Ca.`, `No:20154-T)`: company numbers printed after the name (not store numbers
    /// such as `#744007` or `0994`).
    static func isRegistrationNumber(_ text: String) -> Bool {
        let digits = text.filter(\.isNumber).count
        guard !text.hasPrefix("#") else { return false }
        let hasCheckLetter = text.range(of: #"\d-?[A-Z]\)?$"#, options: .regularExpression) != nil
        return digits >= 5 || digits >= 4 && hasCheckLetter || (text.hasPrefix("(") && digits >= 3)
            || text.uppercased().hasPrefix("(CO") || text.uppercased().hasPrefix("(CA")
    }

    /// Drops stray symbols at the ends and doubled spaces; `¥` in a name is a misread `Y`.
    static func cleaned(_ text: String) -> String {
        let name = text.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
            .replacingOccurrences(of: "¥", with: "Y")
        return name.trimmingCharacters(
            in: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "&)'.")).inverted)
    }
}
