import Foundation

extension MerchantExtractor {
    /// At most this many brands are offered per page, the likeliest first: a page rarely names more than one or two,
    /// and every further one is mostly a word that happens to be a brand's name.
    static let brandCandidateLimit = 4

    /// The most words a brand name read inside a line spans (`dm drogerie markt`, `Aldi Süd`).
    static let brandWordsLimit = 4

    /// A brand read on the page: which one, how alike, from which line and how.
    struct BrandReading {
        var brand: Brand
        var similarity: Double
        var line: Int
        /// The brand is only some of the line's words (`LIDL Berlin`, `www.lidl.de`, `Lidl GmbH`).
        var isInsideLine: Bool
        /// Read from the receipt's web address.
        var isWebsite: Bool
        /// The brand operates in the receipt's country (nil: not known).
        var operatesHere: Bool?
        /// The name that matched (`BrandIndex.Match.matchedName`).
        var matchedName: String
    }

    /// `candidates` with the brands the page names (`BrandIndex`): every line that is not an amount or keyword line,
    /// top or foot, offers the brand it reads as — the whole line allowing one OCR slip (`LDL`, `R@SSMANN`), its
    /// words exactly (`LIDL Berlin`, `Lidl GmbH`), or the web address (`www.lidl.de`) — as a candidate of its own
    /// named as the brand, with the line's features where it is a top line, and `brand` (how alike, 0.75–1),
    /// `brandInCountry` / `brandNotInCountry` (the page's country evidence), `brandInsideLine`, `brandBelowTop`,
    /// `brandEverydayWord`. A candidate that already reads as the brand is marked instead of doubled; a candidate
    /// whose line holds a distinctive brand reading (`isDistinctive`) gets `brandOnLine` and that brand. Everyday
    /// words among brand names (`Total`, `Normal`, `Real`) are why these are features the fit weighs, not a rule.
    static func withBrands(
        _ candidates: [Candidate], lines: [ReceiptLine], countries: Set<String>, website: Website?,
        index: BrandIndex = .shared
    ) -> [Candidate] {
        let readings = brandReadings(lines: lines, countries: countries, website: website, index: index)
        guard !readings.isEmpty else { return candidates }
        var result = candidates
        for (position, candidate) in result.enumerated() {
            let onLine = readings.filter { reading in candidate.lines.contains(reading.line) && isDistinctive(reading) }
            guard let best = onLine.max(by: { $0.similarity < $1.similarity }) else { continue }
            result[position].features[.brandOnLine] = best.similarity
            result[position].brand = best.brand
        }
        for reading in readings {
            var features = brandFeatures(reading)
            let canonical = TextSimilarity.normalized(reading.brand.name)
            // A top line that is the brand's name, as printed (`whole foods`, `Caffe Nero`), stays the candidate: the
            // printed name is kept and the brand marked beside it.
            let isWholeTopLine = !reading.isInsideLine && reading.line < searchDepth
            if let same = result.firstIndex(where: {
                $0.lines.contains(reading.line)
                    && (TextSimilarity.normalized($0.name) == canonical || isWholeTopLine && $0.lines == [reading.line])
            }) {
                if isDistinctive(reading) { result[same].brand = reading.brand }
                result[same].features.merge(features) { max($0, $1) }
                result[same].features[.brandOnLine] = nil
                continue
            }
            // A top line's own candidate lends its features (position, height, case, …); a line further down has
            // only its own few.
            if let fromLine = candidates.first(where: { $0.lines == [reading.line] && $0.features[.headerPass] == nil })
            {
                features.merge(fromLine.features) { brand, _ in brand }
                features[.brandOnLine] = nil
            } else {
                let line = lines[reading.line]
                features[.position] = min(1, Double(reading.line) / Double(searchDepth))
                features[.letters] = min(30, Double(reading.brand.name.filter(\.isLetter).count)) / 10
                features[.ocrConfidence] = line.confidence
                features[.realWordShare] = 1
                if !reading.isWebsite, line.text == line.text.uppercased() { features[.upperCase] = 1 }
            }
            if reading.isWebsite { features[.inWebsite] = 1 }
            result.append(
                Candidate(lines: [reading.line], name: reading.brand.name, features: features, brand: reading.brand))
        }
        return result
    }

    /// Whether a reading names its brand by itself: a brand the page's country evidence says operates here, not an
    /// everyday word among other words (`GREEN GROCER` is no `Green` supermarket). Only such a reading lends its
    /// brand, and so its category, to a line's own candidate (`brandOnLine`); any reading is offered as a candidate
    /// named as the brand, for the fit to weigh.
    static func isDistinctive(_ reading: BrandReading) -> Bool {
        reading.operatesHere == true && !(reading.isInsideLine && isEverydayWord(reading.matchedName))
    }

    /// The brand features of one reading.
    static func brandFeatures(_ reading: BrandReading) -> CandidateFeatures<MerchantFeature> {
        var features: CandidateFeatures<MerchantFeature> = [.brand: reading.similarity]
        switch reading.operatesHere {
        case true?: features[.brandInCountry] = 1
        case false?: features[.brandNotInCountry] = 1
        case nil: break
        }
        if reading.isInsideLine { features[.brandInsideLine] = 1 }
        if reading.line >= searchDepth { features[.brandBelowTop] = 1 }
        if isEverydayWord(reading.matchedName) { features[.brandEverydayWord] = 1 }
        return features
    }

    /// Whether a brand's name (the one read) is an everyday word on receipts (`Total`, `Central`, `Home`): one word
    /// that the fitted categorizer keeps among the page words of five train merchants or more (`CategoryModel.fitted`,
    /// `w:TOTAL`).
    static func isEverydayWord(_ name: String) -> Bool {
        let words = CategoryEvidence.words(name)
        return words.count == 1 && CategoryModel.fitted.logLikelihoods["w:" + words[0]] != nil
    }

    /// The brands the page reads as, one reading each (its likeliest), at most `brandCandidateLimit`.
    static func brandReadings(lines: [ReceiptLine], countries: Set<String>, website: Website?, index: BrandIndex)
        -> [BrandReading]
    {
        var readings: [String: BrandReading] = [:]
        /// Offers the likeliest of `matches`; whether it was offered.
        @discardableResult
        func offer(_ matches: [BrandIndex.Match], line: Int, isInsideLine: Bool, isWebsite: Bool = false) -> Bool {
            // A key several brands share, read as a whole line or a web address: a brand of the receipt's country
            // before one the page's country evidence rules out (`DOMINO'S PIZZA` in Malaysia is the `Domino's` that
            // operates there, not a namesake entry of other countries), then a brand's own name before another's
            // alias (`Coles`, not Shell's `coles express`). Read as words inside a line, the own name comes first: an
            // alias there is mostly a short form another name holds (`BOBS STEAK & CHOP HOUSE` is no `Bob's Stores`).
            // An everyday word (`Sale`, `Fresh`, `Enterprise`) counts only as a whole line or a web address, and only
            // where its brand operates in the receipt's country.
            let counted: [(match: BrandIndex.Match, operatesHere: Bool?)] = matches.compactMap { match in
                let operatesHere = match.brand.operates(in: countries)
                let isEveryday = isEverydayWord(match.matchedName)
                if isEveryday, operatesHere != true || isInsideLine && !isWebsite { return nil }
                // Below the header only an exact reading of a brand the country evidence does not rule out: one OCR
                // slip from the index's names is almost any short word of a receipt's foot (`SALE` read as `Saje`).
                if line >= searchDepth, match.similarity < 1 || operatesHere == false { return nil }
                return (match, operatesHere)
            }
            func rank(_ item: (match: BrandIndex.Match, operatesHere: Bool?)) -> (Double, Int, Int) {
                let country =
                    switch item.operatesHere {
                    case true?: 2
                    case nil: 1
                    case false?: 0
                    }
                let ownName = item.match.isOwnName ? 1 : 0
                return isInsideLine && !isWebsite
                    ? (item.match.similarity, ownName, country) : (item.match.similarity, country, ownName)
            }
            let ranked = counted.max { rank($0) < rank($1) }
            guard let (match, operatesHere) = ranked else { return false }
            let reading = BrandReading(
                brand: match.brand, similarity: match.similarity, line: line, isInsideLine: isInsideLine,
                isWebsite: isWebsite, operatesHere: operatesHere, matchedName: match.matchedName)
            if let known = readings[match.brand.name], !isBetter(reading, than: known) { return true }
            readings[match.brand.name] = reading
            return true
        }
        // The domain first: the same brand on the same line read from its words is the same reading.
        if let website {
            offer(index.matches(website.name, fuzzy: true), line: website.line, isInsideLine: true, isWebsite: true)
        }
        let items = itemBlock(lines)
        for line in lines where line.moneyAmounts.isEmpty && line.role == nil && !items.contains(line.index) {
            let words = brandWords(line.text)
            let keys = words.map(BrandIndex.matchKey).filter { !$0.isEmpty }
            guard keys.joined().count >= 3 else { continue }
            let whole = Array(keys.joined())
            let wholeMatches = index.matches(key: whole, fuzzy: true)
            if !wholeMatches.isEmpty {
                offer(wholeMatches, line: line.index, isInsideLine: false)
                continue
            }
            // Runs of words, the longest first; a run inside one that named a brand offers nothing more (`FRESH
            // MARKET` is not also `Fresh` and `Market`). A run reads a brand only word for word: fewer words than the
            // brand's name has are another word (`REDEEM BEFORE POINTS EXPIRY` names no `Point S`).
            var named: [ClosedRange<Int>] = []
            for length in stride(from: min(brandWordsLimit, keys.count - 1), through: 1, by: -1) {
                for start in 0...(keys.count - length) {
                    let run = start...(start + length - 1)
                    let key = Array(keys[run].joined())
                    guard !named.contains(where: { $0.overlaps(run) }),
                        key.contains(where: { !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
                    else { continue }
                    let wordForWord = index.matches(key: key, fuzzy: false).filter {
                        brandWords($0.matchedName).count <= length
                    }
                    if offer(wordForWord, line: line.index, isInsideLine: true) {
                        named.append(run)
                    }
                }
            }
            // "Lidl Vertriebs GmbH & Co. KG": the brand before the legal form, one OCR slip allowed.
            if let legal = LegalEntity.brand(in: line.text) {
                offer(index.matches(legal, fuzzy: true), line: line.index, isInsideLine: true)
            }
        }
        // Equally likely readings in the order of their brands' names, so a page always offers the same ones.
        return readings.values.sorted {
            isBetter($0, than: $1) || !isBetter($1, than: $0) && $0.brand.name < $1.brand.name
        }
        .prefix(brandCandidateLimit).map { $0 }
    }

    /// The lines between a page's items below the header: after its first amount line and before its first total or
    /// subtotal line (its last amount line where it prints neither). A brand read there names a product (`GIANT 606
    /// OVERFLOW ASSY`, `EY20 PLUG CHAMPION`), not the shop; the shop's own name sits above the items or in the foot
    /// (`THANK YOU FOR SHOPPING AT STOP & SHOP`).
    static func itemBlock(_ lines: [ReceiptLine]) -> Range<Int> {
        guard let first = lines.firstIndex(where: { !$0.moneyAmounts.isEmpty }) else { return 0..<0 }
        let closing =
            lines[first...].firstIndex { $0.role == .total || $0.role == .subtotal }
            ?? lines.lastIndex { !$0.moneyAmounts.isEmpty } ?? first
        let start = max(first + 1, searchDepth)
        return start < closing ? start..<closing : 0..<0
    }

    /// The likelier reading: more alike, of a brand operating here, the whole line, nearer the top.
    static func isBetter(_ reading: BrandReading, than other: BrandReading) -> Bool {
        let rank = { (reading: BrandReading) in
            (
                reading.similarity, reading.operatesHere == false ? 0 : 1, reading.isInsideLine ? 0 : 1,
                -reading.line
            )
        }
        return rank(reading) > rank(other)
    }

    /// The words of a line as brand names are split: runs of letters, digits and `@` (OCR's `O`); `.`, `-`, `'`
    /// and spaces split them, so `www.lidl.de`, `7-Eleven` and `McDonald's` are words a window joins again.
    static func brandWords(_ text: String) -> [String] {
        text.split { !($0.isLetter || $0.isNumber || $0 == "@") }.map(String.init)
    }
}
