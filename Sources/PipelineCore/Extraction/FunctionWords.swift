import Foundation

/// The articles, prepositions, conjunctions and possessives of the languages `KeywordLexicon` knows: the words that
/// join a sentence together. A line whose words they join reads as a phrase (`LA FRAÎCHEUR AU QUOTIDIEN`, `DRESS
/// FOR LESS`, `Sapori di casa`), whatever its case, which a shop's name rarely is (docs/extraction-languages.md).
///
/// Words are written folded (`KeywordLexicon.folded`: upper case, accents dropped).
enum FunctionWords {
    /// The function words of each language (folded).
    static let words: [KeywordLexicon.Language: [String]] = [
        .english: [
            "THE", "A", "AN", "OF", "AND", "OR", "FOR", "TO", "IN", "AT", "ON", "BY", "WITH", "FROM", "YOUR", "YOU",
            "OUR", "WE", "MY",
        ],
        .malay: ["DAN", "DI", "KE", "DARI", "UNTUK", "YANG", "ANDA", "KAMI", "DENGAN"],
        .german: [
            "DER", "DIE", "DAS", "DEN", "DEM", "DES", "EIN", "EINE", "UND", "ODER", "FUR", "MIT", "VON", "ZU", "ZUM",
            "ZUR", "IM", "AM", "AUF", "BEI", "IHR", "IHRE", "UNSER", "WIR",
        ],
        .french: [
            "LE", "LA", "LES", "UN", "UNE", "DE", "DU", "DES", "AU", "AUX", "ET", "OU", "POUR", "A", "EN", "AVEC",
            "PAR", "CHEZ", "SUR", "VOTRE", "VOS", "NOTRE", "NOS",
        ],
        .spanish: [
            "EL", "LA", "LOS", "LAS", "UN", "UNA", "DE", "DEL", "AL", "Y", "O", "EN", "PARA", "POR", "CON", "SU", "SUS",
            "TU", "TUS", "NUESTRO", "NUESTRA",
        ],
        .italian: [
            "IL", "LO", "LA", "GLI", "LE", "UN", "UNA", "DI", "DEL", "DELLA", "DEI", "DELLE", "AL", "ALLA", "E", "ED",
            "PER", "CON", "IN", "DA", "SU", "TUO", "TUA", "NOSTRO", "NOSTRA",
        ],
        .dutch: [
            "DE", "HET", "EEN", "EN", "OF", "VAN", "VOOR", "MET", "OP", "IN", "BIJ", "TE", "UW", "ONS", "ONZE", "JE",
        ],
        .portuguese: [
            "O", "A", "OS", "AS", "UM", "UMA", "DE", "DO", "DA", "DOS", "DAS", "NO", "NA", "AO", "E", "OU", "EM",
            "PARA", "POR", "COM", "SEU", "SUA", "NOSSO", "NOSSA",
        ],
        .polish: ["I", "W", "Z", "NA", "DO", "DLA", "OD", "ZA", "PO", "BO", "ORAZ", "TWOJ", "TWOJE", "NASZ"],
    ]

    /// Every function word, all languages together.
    static let all: Set<String> = Set(words.values.joined())

    /// Whether a word (as printed) is a function word of any language.
    static func contains(_ word: String) -> Bool {
        all.contains(KeywordLexicon.folded(word))
    }

    /// The share of the line's words that are function words joining two others: between a word of three letters or
    /// more that is no function word and another word of two letters or more (`FRAÎCHEUR AU QUOTIDIEN`). A leading
    /// article (`The Capital Grille`, `LA TAURINA`, after a scrap: `CN The Shoppes`) starts a name as often as a
    /// phrase and does not count, nor does a letter of an abbreviation (`C W KHOO`, `D.I.Y.`). Words are the line's whitespace-separated parts, trimmed of
    /// punctuation; one with a digit or a symbol in it is a word that is no letter run.
    static func joiningShare(_ text: String) -> Double {
        let parts = text.split(whereSeparator: \.isWhitespace).map { part in
            KeywordLexicon.folded(String(part)).trimmingCharacters(in: .punctuationCharacters)
        }
        guard parts.count >= 3 else { return 0 }
        // A part that is a run of letters, else nil.
        let letterWords = parts.map { part in part.isEmpty || !part.allSatisfy(\.isLetter) ? nil : part }
        let joining = (1..<(parts.count - 1)).filter { index in
            guard let word = letterWords[index], all.contains(word),
                let before = letterWords[index - 1], let after = letterWords[index + 1]
            else { return false }
            return before.count >= 3 && after.count >= 2 && !all.contains(before)
        }
        return Double(joining.count) / Double(parts.count)
    }
}
