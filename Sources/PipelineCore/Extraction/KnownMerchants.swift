import Foundation

/// A merchant whose receipts were accepted before — by a person, who accepted or corrected them, or by the pipeline
/// on its own (migration 0090) — as later receipts may print it:
/// the name in the person's spelling, the header texts its receipts were read as, and how they printed their total
/// and date (its category is learned by `CategoryHistory` under that name).
public struct KnownMerchant: Sendable, Equatable, Codable {
    /// The canonical name (the person's spelling).
    public var name: String
    /// How earlier receipts of it read at the top (OCR text of the lines the name was read from).
    public var readings: [String]
    /// How many of its receipts were accepted, by the machine or a person.
    public var confirmations: Int
    /// How many of those a person accepted or corrected (the rest the pipeline accepted on its own).
    public var personConfirmations: Int
    /// How its accepted receipts printed their total and date; nil when none was learned.
    public var layout: MerchantLayout?

    /// - Parameter personConfirmations: how many of the `confirmations` a person gave; nil: all of them.
    public init(
        name: String, readings: [String], confirmations: Int = 1, personConfirmations: Int? = nil,
        layout: MerchantLayout? = nil
    ) {
        self.name = name
        self.readings = readings
        self.confirmations = confirmations
        self.personConfirmations = personConfirmations ?? confirmations
        self.layout = layout
    }

    /// The `knownConfirmations` feature: how often it was confirmed, counted up to `saturation`, as 0–1.
    var confirmationsFeature: Double { Double(min(max(confirmations, 1), Self.saturation)) / Double(Self.saturation) }

    /// Confirmations beyond this many add nothing more.
    static let saturation = 5

    /// What a reading of it notes: "known merchant: confirmed 3 times", or, when the pipeline accepted some of its
    /// receipts on its own, "known merchant: accepted 3 times, 1 by a person".
    public var note: String { "known merchant: " + Self.acceptances(confirmations, byPerson: personConfirmations) }

    /// How often a merchant's receipts were accepted, in words: "confirmed 3 times" when a person accepted or
    /// corrected each of them, else "accepted 3 times, 1 by a person" ("none by a person").
    public static func acceptances(_ count: Int, byPerson: Int) -> String {
        let times = "\(count) time\(count == 1 ? "" : "s")"
        guard byPerson < count else { return "confirmed \(times)" }
        return "accepted \(times), \(byPerson == 0 ? "none" : "\(byPerson)") by a person"
    }
}

extension MerchantExtractor {
    /// How alike a line must read to a known merchant (its name or an earlier reading) to offer that merchant:
    /// `LDL` for `LIDL` (one letter of four lost) is the loosest match taken.
    static let knownMatch = 0.75

    /// `candidates` with the known merchants their lines read like (over the whole text and over their own words,
    /// `distinctiveWordsAgree`): a line that reads like one offers the
    /// merchant's canonical name from the same lines, with the line's features and `knownMerchant` (how alike,
    /// 0.75–1) and how often it was confirmed (`knownConfirmations`); a candidate that already reads as the canonical
    /// name is marked instead of doubled. A name wrapped over the top lines (`POPULAR BOOK` / `CO.(M) SDN BHD`) is
    /// read with the lines below it joined (`wrappedLines`), as a person confirmed it from them on another receipt.
    static func withKnownMerchants(_ candidates: [Candidate], lines: [ReceiptLine], known: [KnownMerchant])
        -> [Candidate]
    {
        guard !known.isEmpty else { return candidates }
        let keys = known.map { merchant in
            (merchant, ([merchant.name] + merchant.readings).map { ($0, Array(TextSimilarity.normalized($0))) })
        }
        var result = candidates
        for candidate in candidates {
            var best: (merchant: KnownMerchant, similarity: Double, lines: [Int])?
            for (text, readLines) in [(candidate.name, candidate.lines)] + wrapped(candidate, in: lines) {
                let line = Array(TextSimilarity.normalized(text))
                guard line.count >= 3 else { continue }
                for (merchant, readings) in keys {
                    for (readingText, reading) in readings where !reading.isEmpty {
                        let longest = max(line.count, reading.count)
                        // Lengths too far apart cannot reach the match; skip the edit distance.
                        guard Double(min(line.count, reading.count)) >= knownMatch * Double(longest) else { continue }
                        let similarity =
                            1 - Double(TextSimilarity.editDistance(line, reading)) / Double(longest)
                        if similarity >= knownMatch, similarity > best?.similarity ?? 0,
                            distinctiveWordsAgree(text, readingText)
                        {
                            best = (merchant, similarity, readLines)
                        }
                    }
                }
            }
            guard let best else { continue }
            let canonical = TextSimilarity.normalized(best.merchant.name)
            if let same = result.firstIndex(where: {
                $0.lines == best.lines && TextSimilarity.normalized($0.name) == canonical
            }) {
                result[same].features[.knownMerchant] = max(
                    result[same].features[.knownMerchant] ?? 0, best.similarity)
                result[same].features[.knownConfirmations] = best.merchant.confirmationsFeature
            } else {
                var offered = candidate
                offered.name = best.merchant.name
                offered.lines = best.lines
                offered.features[.knownMerchant] = best.similarity
                offered.features[.knownConfirmations] = best.merchant.confirmationsFeature
                result.append(offered)
            }
        }
        return result
    }

    /// Whether two readings alike enough to name one merchant also agree on the words that say which business it
    /// is, not what kind (`genericNameWords`: `RESTAURANT`, `HARDWARE SDN BHD`, `FOODS`, or a letter off one): those
    /// words read as alike as `knownMatch` (`99 5PEED MART S/8` for `99 SPEED MART S/B`), or each side's read within
    /// the other's whole text (`SANYU STATIONERY SHOP` for `SANYUSTATIONERYSHOP`, read as one word). Over the whole
    /// text `B & BEST RESTAURANT` reads 75% like `IBERIA RESTAURANT`, and `C W KHOO HARDWARE SDN BHD` 80% like `WAHIN
    /// HARDWARE SDN BHD`.
    static func distinctiveWordsAgree(_ first: String, _ second: String) -> Bool {
        let texts = [first, second]
        let distinctive = texts.map(distinctiveLetters)
        let longest = max(distinctive[0].count, distinctive[1].count)
        guard longest > 0 else { return true }
        let alike = { (edits: Int) in 1 - Double(edits) / Double(longest) >= knownMatch }
        if alike(TextSimilarity.editDistance(distinctive[0], distinctive[1])) { return true }
        return (0..<2).allSatisfy { side in
            let other = Array(TextSimilarity.normalized(texts[1 - side]))
            return distinctive[side].isEmpty
                || alike(TextSimilarity.editDistance(distinctive[side], other, withinRight: true))
        }
    }

    /// The letters and digits of `text`'s words that are not generic (`readsAsGenericWord`), upper-cased and joined.
    static func distinctiveLetters(_ text: String) -> [Character] {
        Array(
            TextSimilarity.words(text).split(separator: " ").map(String.init).filter { !readsAsGenericWord($0) }
                .joined())
    }

    /// A `genericNameWords` word, or a word of five letters or more one letter off one (`ENTERPRISEY`, `RESTAURAN`).
    static func readsAsGenericWord(_ word: String) -> Bool {
        if genericNameWords.contains(word) { return true }
        guard word.count >= 5 else { return false }
        let letters = Array(word)
        return genericNameWords.contains { generic in
            abs(generic.count - letters.count) <= 1 && TextSimilarity.editDistance(letters, Array(generic)) <= 1
        }
    }

    /// How many lines below a candidate's a wrapped name may run on to.
    static let wrappedLines = 2

    /// The candidate's lines with the next one, then the next two, among the top `searchDepth` lines: the texts a
    /// name wrapped over them reads as, and the lines each was read from.
    static func wrapped(_ candidate: Candidate, in lines: [ReceiptLine]) -> [(String, [Int])] {
        guard let first = candidate.lines.min(), let last = candidate.lines.max() else { return [] }
        let end = min(lines.count, searchDepth)
        return (1...wrappedLines).compactMap { extra in
            guard last + extra < end else { return nil }
            let run = Array(first...(last + extra))
            return (run.map { lines[$0].text }.joined(separator: " "), run)
        }
    }
}
