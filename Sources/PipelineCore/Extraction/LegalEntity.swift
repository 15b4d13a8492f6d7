import Foundation

/// A company's legal name as receipts print it, often at the foot (`Aldi GmbH & Co. KG`, `Supermercado García
/// S.L.`, `Delikatesy Nowak Sp. z o.o.`, `POPULAR BOOK CO. (M) SDN BHD`): the legal form says the line names the
/// business, and the words before it are the brand when the header is a logo or a slogan.
enum LegalEntity {
    /// The legal forms of the countries the extractor reads: German, French, Spanish, Italian, Dutch, Portuguese,
    /// Polish, English and Malaysian. Short upper-case forms (`AG`, `KG`, `SAS`) must be upper case (`kg` is a
    /// weight); the others match in any case, as whole words, with OCR's `0` for an `O` (`V.0.F.`). A form right
    /// after a number is a quantity (`CEMENT 50 KG`), not a company. The European company `SE` counts only as a
    /// partner of a KG (`ALDI SE & Co. KG`): on its own it is a Spanish word (`NO SE ADMITEN DEVOLUCIONES`).
    static let formPattern = try? NSRegularExpression(
        pattern: #"(?<![\p{L}])(?<!\d\s)(?<!\d)(?:(?-i:AG|KG|OHG|SAS|SASU|EURL|SARL|SE(?=\s*&\s*Co))|GmbH|e\.\s?K\.|"#
            + #"S\.\s?A\.(?:\s?S\.)?|S\.\s?L\.(?:\s?U\.)?|S\.\s?Coop\.|B\.\s?V\.|N\.\s?V\.|V\.\s?[O0]\.\s?F\.|"#
            + #"S\.\s?p\.\s?A\.|S\.\s?r\.\s?l\.|S\.\s?n\.\s?c\.|S\.\s?a\.\s?s\.|(?:Unipessoal\s)?Lda\.?|"#
            + #"Sp\.\s?z\s?[o0]\.\s?[o0]\.?|Sp\.\s?[jk]\.|Ltd\.?|"#
            + #"LLC|Inc\.?|Limited|PLC|S[DIUE0]N\.?\s?B[HE][DO]\.?|S/B)(?![\p{L}])"#,
        options: [.caseInsensitive])

    /// Where the first legal form on `text` is, or nil when there is none.
    static func form(in text: String) -> Range<String.Index>? {
        guard let formPattern,
            let match = formPattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text))
        else { return nil }
        return Range(match.range, in: text)
    }

    /// The business a legal-entity line names: the brand before the legal form, without `& Co.`, a trailing comma
    /// or dash (`Aldi GmbH & Co. KG` → `Aldi`); a Malaysian name keeps its `SDN BHD`, as Malaysian receipts and their
    /// labels name the business by it. Nil when the line has no legal form or fewer than three letters before it
    /// (`CO. (M)` not counted).
    static func brand(in text: String) -> String? {
        guard let form = form(in: text) else { return nil }
        var brand = String(text[..<form.lowerBound])
        if text[form].range(of: #"^(S[DIUE0]N|S/B)"#, options: [.regularExpression, .caseInsensitive]) != nil {
            // `CO. (M)` belongs to the form (`POPULAR BOOK CO. (M) SDN BHD`): alone before it, it names nothing.
            let name = brand.replacingOccurrences(
                of: #"(?i)(^|\s)(co\.?|\(m\))(?=\s|$)"#, with: " ", options: .regularExpression)
            guard name.filter(\.isLetter).count >= 3 else { return nil }
            return String(text[..<form.upperBound]).trimmingCharacters(in: .whitespaces)
        }
        brand = brand.replacingOccurrences(
            of: #"(?i)(\s*(&|\+|\bund|\band|\bet|\be|\by)?\s*\bco\.?)\s*$"#, with: "", options: .regularExpression)
        brand = brand.trimmingCharacters(
            in: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: ")'.")).inverted)
        return brand.filter(\.isLetter).count >= 3 ? brand : nil
    }
}
