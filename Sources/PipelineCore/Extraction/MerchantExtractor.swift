import Foundation

/// Picks the store name from the top of the receipt: legal-entity suffixes, size, capitals and position, never an
/// address, phone, date or greeting line.
enum MerchantExtractor {
    /// Suffixes of company names; a line ending in one is almost surely the merchant.
    static let companyWords: Set<String> = [
        "SDN", "BHD", "BHD.", "ENTERPRISE", "ENTERPRISES", "TRADING", "LTD", "LIMITED", "INC", "LLC", "GMBH", "CO",
        "CORP", "CORPORATION", "COMPANY", "PLC", "RESTAURANT", "RESTORAN", "CAFE", "MART", "MARKET", "SUPERMARKET",
        "STORE", "STORES", "HARDWARE", "BAKERY", "KITCHEN", "HOTEL", "PHARMACY", "STATIONERY", "BOOKSTORE", "GRILL",
        "BAR", "PIZZA", "COFFEE", "SHOP", "HOUSE", "FOOD", "FOODS", "DELI", "BISTRO", "PUB", "TAVERN", "S/B",
    ]

    /// Words that mark a line as not the name (address, contact, receipt furniture).
    static let furnitureWords: Set<String> = [
        "TEL", "FAX", "PHONE", "HP", "GST", "REG", "NO", "JALAN", "JLN", "TAMAN", "LOT", "STREET", "ST", "ROAD", "RD",
        "AVE", "AVENUE", "BLVD", "SUITE", "FLOOR", "WWW", "COM", "HTTP", "EMAIL", "RECEIPT", "INVOICE", "TAX", "CASHIER",
        "DATE", "TIME", "TABLE", "ORDER", "WELCOME", "THANK", "THANKS", "SERVER", "GUEST", "CHECK", "TERMINAL", "SALES",
        "DOC", "BILL", "OPEN", "DAILY", "HOURS", "MEMBER", "COPY", "STORE#", "TRANS", "CUSTOMER",
    ]

    /// How many lines from the top are considered.
    static let searchDepth = 8

    static func extract(lines: [ReceiptLine], pageHeight: Int) -> ExtractedField<String>? {
        let top = Array(lines.prefix(searchDepth))
        guard !top.isEmpty else { return nil }
        let medianHeight = top.map(\.box.height).sorted()[top.count / 2]
        var best: (score: Double, lines: [Int], name: String)?
        for (position, line) in top.enumerated() {
            let name = cleaned(line.text)
            let letterCount = name.filter(\.isLetter).count
            guard letterCount >= 3 else { continue }
            let upperWords = Set(name.uppercased().split(separator: " ").map(String.init))
            var score = 2.0 - Double(position) * 0.3
            let letterShare = Double(letterCount) / Double(max(1, name.filter { !$0.isWhitespace }.count))
            score += letterShare * 1.5
            if !upperWords.isDisjoint(with: companyWords) { score += 2 }
            if upperWords.contains("SDN") || upperWords.contains("BHD") || name.uppercased().contains("SDN BHD") { score += 1.5 }
            score -= Double(upperWords.intersection(furnitureWords).count) * 1.5
            if line.role != nil || !line.moneyAmounts.isEmpty { score -= 2 }
            if name.rangeOfCharacter(from: .decimalDigits) != nil { score -= 0.8 }
            if medianHeight > 0, line.box.height > medianHeight { score += min(1.5, Double(line.box.height - medianHeight) / Double(medianHeight) * 2) }
            if name == name.uppercased() { score += 0.3 }
            score += (line.confidence - 0.6) * 2
            if name.count <= 3 { score -= 1 }
            var sourceLines = [line.index]
            var fullName = name
            // "SOON HUAT" / "SDN BHD": a bare suffix line completes the name above it.
            if position > 0, upperWords.isSubset(of: ["SDN", "BHD", "SDN.", "BHD.", "S/B", "(M)"]) {
                let previous = top[position - 1]
                fullName = cleaned(previous.text) + " " + name
                sourceLines = [previous.index, line.index]
            }
            if best == nil || score > best!.score { best = (score, sourceLines, fullName) }
        }
        guard let best else { return nil }
        let confidence = max(0.1, min(0.95, 0.3 + best.score * 0.1))
        return ExtractedField(value: best.name, confidence: confidence, sourceLines: best.lines)
    }

    /// Drops registration numbers in brackets, stray symbols at the ends and doubled spaces.
    static func cleaned(_ text: String) -> String {
        var name = text.replacingOccurrences(of: #"\((?:CO\.?\s*)?(?:NO\.?\s*)?[0-9A-Z\-\s]*\d[0-9A-Z\-\s]*\)?$"#, with: "", options: [.regularExpression, .caseInsensitive])
        name = name.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        return name.trimmingCharacters(in: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "&)'")).inverted)
    }
}
