import Foundation

/// Picks the store name from the top of the receipt: legal-entity suffixes, size, capitals and position, never an
/// address, phone, date or greeting line.
enum MerchantExtractor {
    /// Legal suffixes and trade words that make a line almost surely the merchant's name.
    static let companyWords: Set<String> = [
        "SDN", "BHD", "BHD.", "ENTERPRISE", "ENTERPRISES", "TRADING", "LTD", "LIMITED", "INC", "LLC", "GMBH", "CO", "CO.",
        "CORP", "CORPORATION", "COMPANY", "PLC", "RESTAURANT", "RESTORAN", "RISTORANTE", "CAFE", "SUPERMARKET",
        "HYPERMARKET", "HARDWARE", "BAKERY", "BAKERIES", "HOTEL", "PHARMACY", "STATIONERY", "BOOKSTORE", "S/B",
    ]

    /// Generic trade words: a weaker hint, since slogans use them too ("The fresh food people").
    static let tradeWords: Set<String> = [
        "MART", "MARKET", "STORE", "STORES", "KITCHEN", "GRILL", "BAR", "PIZZA", "COFFEE", "SHOP", "HOUSE", "FOOD", "FOODS",
        "DELI", "BISTRO", "PUB", "TAVERN", "DINER",
    ]

    /// Street words: a line with one of them and a number is an address.
    static let streetWords: Set<String> = [
        "STREET", "ST", "ROAD", "RD", "AVE", "AVENUE", "BLVD", "DRIVE", "DR", "HWY", "HIGHWAY", "PKWY", "LANE", "LN", "WAY",
        "JALAN", "JLN", "LORONG", "TAMAN", "LOT", "SUITE", "FLOOR", "RING", "STRASSE", "STR", "PLATZ", "WEG", "CALLE",
        "VIA", "RUE", "PLAZA", "VILLAGE",
    ]

    /// Street words that names use too ("Crowne Plaza", "Village Bakery").
    static let nameFriendlyStreetWords: Set<String> = ["PLAZA", "VILLAGE", "WAY", "RING"]

    /// Words that mark a line as not the name (address, contact, receipt furniture).
    static let furnitureWords: Set<String> = [
        "TEL", "FAX", "PHONE", "HP", "GST", "REG", "NO", "WWW", "COM", "HTTP", "EMAIL", "RECEIPT", "INVOICE", "TAX", "CASHIER",
        "DATE", "TIME", "TABLE", "ORDER", "WELCOME", "THANK", "THANKS", "SERVER", "GUEST", "CHECK", "TERMINAL", "SALES",
        "DOC", "BILL", "OPEN", "DAILY", "HOURS", "MEMBER", "COPY", "TRANS", "CUSTOMER", "SHOPPING", "VISIT", "FEEDBACK",
        "SURVEY", "CARD", "DUPLICATE", "GOODS", "SOLD", "REFUNDABLE", "RETURNABLE", "EXCHANGEABLE", "VAT", "ABN", "PAYMENT", "METHOD", "SERIAL",
    ]

    /// How many lines from the top are considered.
    static let searchDepth = 8

    static func extract(lines: [ReceiptLine]) -> ExtractedField<String>? {
        let top = Array(lines.prefix(searchDepth))
        guard !top.isEmpty else { return nil }
        let medianHeight = top.map(\.box.height).sorted()[top.count / 2]
        var best: (score: Double, lines: [Int], name: String)?
        for (position, line) in top.enumerated() {
            let words = nameWords(line.words)
            let name = cleaned(words.map(\.text).joined(separator: " "))
            let letterCount = name.filter(\.isLetter).count
            guard letterCount >= 3 else { continue }
            let upper = name.uppercased()
            let upperWords = Set(upper.split(separator: " ").map(String.init))
            let realWords = words.filter {
                $0.confidence >= 70 && $0.text.filter(\.isLetter).count >= 3 || $0.confidence >= 40 && looksLikeWord($0.text)
            }
            var score = 2.0 - Double(position) * 0.3
            score += Double(realWords.count) / Double(max(1, words.count)) * 2
            if !upperWords.isDisjoint(with: companyWords) {
                score += 2
            } else if !upperWords.isDisjoint(with: tradeWords) {
                score += 0.7
            }
            if upper.contains("SDN BHD") || upperWords.contains("BHD") || upperWords.contains("S/B") { score += 1.5 }
            let letterRuns = Set(upper.components(separatedBy: CharacterSet.letters.inverted).filter { !$0.isEmpty })
            score -= Double(letterRuns.intersection(furnitureWords).count) * 1.5
            // "LOT 2811, JALAN ANGSA", and without a number "TAMAN BERKELEY": an address, not a name.
            if line.text.contains(where: \.isNumber), !letterRuns.isDisjoint(with: streetWords) {
                score -= 1.5
            } else if !letterRuns.isDisjoint(with: streetWords.subtracting(nameFriendlyStreetWords)) {
                score -= 0.8
            }
            if !line.moneyAmounts.isEmpty { score -= 2 }
            if name.rangeOfCharacter(from: .decimalDigits) != nil { score -= 0.5 }
            if medianHeight > 0, line.box.height > medianHeight {
                score += min(1.5, Double(line.box.height - medianHeight) / Double(medianHeight) * 2)
            }
            if name == upper { score += 0.3 }
            // "Welcome to Chick-fil-A": the receipt names its merchant outright.
            if leadIn(of: Array(line.words.drop(while: { $0.text.filter(\.isLetter).isEmpty }))) != nil { score += 1.5 }
            let meanConfidence = words.map(\.confidence).reduce(0, +) / Double(max(1, words.count)) / 100
            score += (meanConfidence - 0.7) * 3
            if realWords.isEmpty { score -= 2 }
            var sourceLines = [line.index]
            var fullName = name
            // "POPULAR BOOK" / "CO. (M) SDN BHD": a line of company suffixes completes the name above it.
            let suffixOnly = upperWords.isSubset(of: ["SDN", "BHD", "SDN.", "BHD.", "S/B", "(M)", "CO.", "CO", "BHD,"])
            if position > 0, suffixOnly, top[position - 1].letters.count >= 3 {
                let previous = top[position - 1]
                fullName = cleaned(nameWords(previous.words).map(\.text).joined(separator: " ")) + " " + name
                sourceLines = [previous.index, line.index]
            }
            if best == nil || score > best!.score { best = (score, sourceLines, fullName) }
        }
        guard var best else { return nil }
        // "Panera Bread" / "Cafe 0994", "Windmill Family" / "Restaurant": a short name continues on a neighbour line.
        if let first = best.lines.first, let last = best.lines.last, !hasCompanySuffix(best.name),
            best.name.split(separator: " ").count <= 3
        {
            let height = lines[last].box.height
            if last + 1 < lines.count, let continuation = nameContinuation(lines[last + 1], nameHeight: height) {
                best = (best.score, best.lines + [last + 1], best.name + " " + continuation)
            } else if first > 0, let start = nameContinuation(lines[first - 1], nameHeight: height) {
                best = (best.score, [first - 1] + best.lines, start + " " + best.name)
            }
        }
        let confidence = max(0.1, min(0.95, 0.3 + best.score * 0.1))
        return ExtractedField(value: best.name, confidence: confidence, sourceLines: best.lines)
    }

    /// Letters (and `-`, `'`) only, four or more, with a vowel and no letter three times in a row: a stylized name
    /// that Tesseract scored low (`Dresserwayne`, `Chick-fil-A`), not logo noise (`KKKKKKKKE`).
    static func looksLikeWord(_ text: String) -> Bool {
        let letters = Array(text.uppercased().filter(\.isLetter))
        guard letters.count >= 4, text.allSatisfy({ $0.isLetter || "-'’".contains($0) }),
            letters.contains(where: { "AEIOUY".contains($0) })
        else { return false }
        return !zip(letters, zip(letters.dropFirst(), letters.dropFirst(2))).contains { $0 == $1.0 && $1.0 == $1.1 }
    }

    static func hasCompanySuffix(_ name: String) -> Bool {
        let words = Set(name.uppercased().split(separator: " ").map(String.init))
        return !words.isDisjoint(with: terminalSuffixes.union(["SDN", "ENTERPRISE", "TRADING", "CO", "CO."]))
    }

    /// A line that reads as more of the name: up to three clean, confident words in the name's font size, no
    /// amount, address, contact or store number.
    static func nameContinuation(_ line: ReceiptLine, nameHeight: Int) -> String? {
        let words = nameWords(line.words)
        guard (1...3).contains(words.count), !line.words.contains(where: { isRegistrationNumber($0.text) }), line.moneyAmounts.isEmpty,
            nameHeight == 0 || Double(min(line.box.height, nameHeight)) >= Double(max(line.box.height, nameHeight)) * 0.6,
            words.allSatisfy({ $0.confidence >= 80 }),
            words.allSatisfy({ word in
                word.text.allSatisfy { $0.isLetter || $0 == "'" || $0 == "&" } || word.text.hasPrefix("#")
                    || word.text.count <= 4 && word.text.allSatisfy(\.isNumber)
            }),
            words.contains(where: { $0.text.filter(\.isLetter).count >= 3 }),
            line.tokens.isDisjoint(with: furnitureWords), line.tokens.isDisjoint(with: streetWords)
        else { return nil }
        return cleaned(words.map(\.text).joined(separator: " "))
    }

    /// The words of a line that can belong to a name: unsure scraps at either end (logo noise such as `ee`, `|`),
    /// a lead-in (`Welcome to`, `Owned by:`) and everything from a registration number or after a legal suffix on
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
        }
        var kept = Array(correctingLegalSuffixes(words).drop(while: isScrap))
        while let last = kept.last, isScrap(last) { kept.removeLast() }
        if let leadIn = leadIn(of: kept) { kept.removeFirst(leadIn.count) }
        if let cut = kept.indices.dropFirst().first(where: {
            isRegistrationNumber(kept[$0].text) || contactWords.contains(kept[$0].text.uppercased().trimmingCharacters(in: .punctuationCharacters))
        }) {
            kept = Array(kept[..<cut])
            while let last = kept.last, isScrap(last) { kept.removeLast() }
        }
        if let last = kept.indices.dropLast().first(where: { terminalSuffixes.contains(kept[$0].text.uppercased()) }) {
            kept = Array(kept[...last])
        }
        return kept
    }

    /// Words that introduce the name rather than belong to it.
    static let leadIns: [[String]] = [["WELCOME", "TO"], ["OWN", "BY"], ["OWNED", "BY"], ["OPERATED", "BY"]]

    /// The lead-in the words start with, if any (with at least one word after it).
    static func leadIn(of words: [OCRWord]) -> [String]? {
        leadIns.first { leadIn in
            words.count > leadIn.count
                && zip(words, leadIn).allSatisfy { $0.text.uppercased().trimmingCharacters(in: .punctuationCharacters) == $1 }
        }
    }

    /// Legal suffixes that end a company name.
    static let terminalSuffixes: Set<String> = ["BHD", "BHD.", "S/B", "LTD", "LTD.", "INC", "INC.", "LLC", "GMBH", "PLC"]

    /// `SIN BHD`, `SUN BED`, `5DN BHD`, `S/R`: the Malaysian suffixes as Tesseract often misreads them.
    static func correctingLegalSuffixes(_ words: [OCRWord]) -> [OCRWord] {
        var words = words
        for index in words.indices {
            let text = words[index].text.uppercased()
            let next = index + 1 < words.count ? words[index + 1].text.uppercased() : nil
            if let next, misreadSDN.contains(text), misreadBHD.contains(next.trimmingCharacters(in: .punctuationCharacters)) {
                words[index].text = "SDN"
                words[index + 1].text = "BHD"
                // "(M)" for Malaysia, read as "(4)" or "(H)".
                if index > 0, words[index - 1].text.count == 3, words[index - 1].text.hasPrefix("("), words[index - 1].text.hasSuffix(")") {
                    words[index - 1].text = "(M)"
                }
            } else if next == nil || next?.hasPrefix("(") == true || next.map(isRegistrationNumber) == true, misreadSB.contains(text) {
                words[index].text = "S/B"
            }
        }
        return words
    }

    static let misreadSDN: Set<String> = ["SDN", "SIN", "SUN", "SEN", "SON", "S0N", "5DN", "SDN."]
    static let misreadBHD: Set<String> = ["BHD", "BED", "BH", "BND", "8HD", "BHO", "BHP"]
    static let misreadSB: Set<String> = ["S/B", "S/R", "5/8", "S/8", "5/B", "$/B"]

    /// Words after which a name line carries contact details (`Subway#15936-0 Phone 608-…`).
    static let contactWords: Set<String> = ["PHONE", "TEL", "FAX", "PH", "TELEPHONE"]

    /// `(417940-M)`, `862725-U`, `(Ca.`, `No:20154-T)`: company numbers printed after the name (not store numbers
    /// such as `#744007` or `0994`).
    static func isRegistrationNumber(_ text: String) -> Bool {
        let digits = text.filter(\.isNumber).count
        guard !text.hasPrefix("#") else { return false }
        let hasCheckLetter = text.range(of: #"\d-?[A-Z]\)?$"#, options: .regularExpression) != nil
        return digits >= 5 || digits >= 4 && hasCheckLetter || (text.hasPrefix("(") && digits >= 3) || text.uppercased().hasPrefix("(CO") || text.uppercased().hasPrefix("(CA")
    }

    /// Drops stray symbols at the ends and doubled spaces; `¥` in a name is a misread `Y`.
    static func cleaned(_ text: String) -> String {
        let name = text.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
            .replacingOccurrences(of: "¥", with: "Y")
        return name.trimmingCharacters(in: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "&)'.")).inverted)
    }
}
