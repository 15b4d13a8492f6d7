import Foundation

/// The evidence the fitted categorizer weighs, as feature names: the merchant name's words (`m:PHARMACY`) and their
/// five-letter pieces (`g:PHARM`, so that a name printed without spaces, `PANERABREAD`, still shows `BREAD`), the
/// words on the page (`w:LITRE`), and the item categories the item rules found (`i:Fuel`). One tokenizer for the fit
/// (`pipeline-bench category-features`) and for categorizing, so both see the same features (docs/categories.md).
public enum CategoryEvidence {
    /// Legal forms and the words around them: they say nothing about what a merchant sells.
    static let legalWords: Set<String> = [
        "SDN", "BHD", "PLT", "LLC", "LLP", "LTD", "INC", "CORP", "CORPORATION", "COMPANY", "LIMITED", "GMBH", "PTE",
        "PTY", "SADECV", "OWNED", "OWNER", "DIMILIKI", "OLEH", "THE", "AND",
    ]

    /// Page words kept are at least this long: shorter ones are mostly OCR fragments and units.
    static let minimumWordLength = 3
    /// The length of the pieces of merchant words.
    static let pieceLength = 5

    /// Feature names of one receipt, each once, sorted.
    /// - Parameters:
    ///   - merchant: the merchant name as read (or as a person gave it).
    ///   - pageText: the OCR text of the whole page.
    ///   - itemCategories: the item rules' category of each line item.
    public static func features(merchant: String?, pageText: String, itemCategories: [ItemCategory]) -> [String] {
        var features = Set<String>()
        for word in words(merchant ?? "") where !legalWords.contains(word) {
            features.insert("m:" + word)
            let letters = Array(word)
            for start in stride(from: 0, through: letters.count - pieceLength, by: 1) {
                features.insert("g:" + String(letters[start..<start + pieceLength]))
            }
        }
        for word in words(pageText) { features.insert("w:" + word) }
        for category in itemCategories where category != .other { features.insert("i:" + category.rawValue) }
        return features.sorted()
    }

    /// Upper-cased runs of letters at least `minimumWordLength` long (digits split words: `RON95` → `RON`).
    static func words(_ text: String) -> [String] {
        text.uppercased().split { !$0.isLetter }.map(String.init).filter { $0.count >= minimumWordLength }
    }
}
