/// The header a merchant name was read from, as learned merchants are keyed (`merchant_aliases.header_key`): the
/// OCR lines the name came from, else the page's first line, as `TextSimilarity.words`. A person's correction and an
/// accepted expense store it; a later page that reads the same header finds the name by it.
public enum MerchantHeader {
    /// The key of a page's header; nil when its header has no letter or digit.
    /// - Parameters:
    ///   - ocrText: the page's text, one OCR line per text line.
    ///   - merchantLines: the 0-based lines the merchant was read from (`FieldSources.merchant.lines`).
    public static func key(ocrText: String, merchantLines: [Int]) -> String? {
        let lines = ocrText.split(separator: "\n", omittingEmptySubsequences: false)
        let named = merchantLines.sorted().filter { lines.indices.contains($0) }.map { String(lines[$0]) }
        let header = named.isEmpty ? lines.first.map(String.init) ?? "" : named.joined(separator: " ")
        let key = TextSimilarity.words(header)
        return key.isEmpty ? nil : key
    }
}
