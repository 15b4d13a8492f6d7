import Foundation

/// The currency of a receipt and how sure the detector is.
public struct CurrencyGuess: Sendable, Equatable {
    /// ISO 4217 code such as `MYR`.
    public var code: String
    /// 0–1: an explicit code or symbol is near 1, a locale cue (phone format, company suffix) lower.
    public var confidence: Double
    /// Index of the OCR line that gave it away.
    public var lineIndex: Int?
    /// What decided it, for findings (`"RM" on line 12`).
    public var reason: String
}

/// Finds the currency from symbols, codes and country cues (`RM`, `SDN BHD` → MYR; `GST`/`HST` + `$` → CAD).
public enum CurrencyDetector {
    /// A cue: a pattern (matched on upper-cased, whole-word text), the currency, and its weight.
    struct Cue {
        var pattern: String
        var code: String
        var weight: Double
    }

    /// A US state with its ZIP code: `Los Angeles, CA 90036`, `TX 75087-1234`.
    static let usStateAndZIP = #"\b"# + usStates + #"\.?\s\d{5}(-\d{4})?\b"#
    /// A US phone number, `(608) 555-1234`, `608-555-1234`, `608.555.1234`, and with a space after the area code
    /// `305 861-2222` (area code and exchange starting 2–9, as the North American plan numbers them), not inside a
    /// longer run of groups (the receipt number `#001-001-0934-0001`).
    static let usPhone =
        #"\(\d{3}\)\s?\d{3}[-. ]\d{4}\b|(?<![\d-])(\d{3}[-.]|[2-9]\d{2} (?=[2-9]))\d{3}[-.]\d{4}\b(?![-.]\d)"#

    static let cues: [Cue] = [
        Cue(pattern: #"(?<![A-Z])RM\s?\d"#, code: "MYR", weight: 1.0),
        Cue(pattern: #"\bMYR\b|\(\s?RM\s?\)"#, code: "MYR", weight: 1.0),
        // The Malaysian company suffix, also as OCR misreads it (`SIN BHD`, `SUN BED`, `SDN BH`).
        Cue(pattern: #"\bS[DIUE0]N\.?\s?B[HE][DO]?\b|\bS/B\b|\bBHD\b"#, code: "MYR", weight: 0.8),
        Cue(
            pattern: #"\bMALAYSIA\b|\bSELANGOR\b|\bJOHOR\b|\bKUALA LUMPUR\b|\bJALAN\b|\bTAMAN\b"#, code: "MYR",
            weight: 0.6),
        // A Malaysian GST registration: twelve digits after `GST ID`, `GST NO.`, `GST REG NO`, `GST:`.
        Cue(pattern: #"\bGST\b[^0-9]{0,12}\b\d{12}\b"#, code: "MYR", weight: 0.8),
        // Symbols only next to an amount: OCR turns specks and "C$" into stray € and £.
        Cue(pattern: #"€\s?\d+[.,]\d{2}\b|\d[.,]\d{2}\s?€|\bEUR\b|\bEURO\b"#, code: "EUR", weight: 1.0),
        Cue(pattern: #"£\s?\d+[.,]\d{2}\b|\bGBP\b"#, code: "GBP", weight: 1.0),
        Cue(pattern: #"\bPLN\b|\d[.,]\d{2}\s?ZŁ|\bZŁ\b"#, code: "PLN", weight: 1.0),
        Cue(pattern: #"\bVAT\b.*\bUK\b|\bLONDON\b"#, code: "GBP", weight: 0.4),
        Cue(pattern: #"\bCAD\b|C\$"#, code: "CAD", weight: 1.0),
        Cue(pattern: #"\bHST\b|\bPST\b|\bQST\b|\bTPS\b|\bTVQ\b|\bONTARIO\b|\bCANADA\b"#, code: "CAD", weight: 0.6),
        // Not a point-of-sale header's guest count (`Tbl 2/1 Chk 2334 Gst 1`).
        Cue(pattern: #"\bGST\b(?!\s+\d{1,2}(?![\d.,%]))"#, code: "CAD", weight: 0.3),
        Cue(pattern: #"\b[A-Z]\d[A-Z]\s?\d[A-Z]\d\b"#, code: "CAD", weight: 0.8),
        Cue(pattern: #"\bAUD\b|AU\$|A\$|\bABN\b"#, code: "AUD", weight: 0.9),
        Cue(pattern: #"\bSGD\b|S\$|\bSINGAPORE\b"#, code: "SGD", weight: 0.9),
        Cue(pattern: #"\bAED\b|\bDIRHAM"#, code: "AED", weight: 1.0),
        Cue(pattern: #"₹|\bINR\b|\bRS\.?\s?\d"#, code: "INR", weight: 0.9),
        Cue(pattern: #"\bIDR\b|\bRP\.?\s?\d"#, code: "IDR", weight: 1.0),
        Cue(pattern: #"\bINDONESIA\b|\bJAKARTA\b"#, code: "IDR", weight: 0.6),
        // Indonesian words Malaysian receipts do not use: the VAT and restaurant tax, `pajak` for tax, `kembalian`
        // for change (Malay: `cukai`, `baki`).
        Cue(pattern: #"\bPPN\b|\bPB1\b|\bPAJAK\b|\bKEMBALIAN\b"#, code: "IDR", weight: 0.6),
        Cue(pattern: #"\bVND\b|₫|\d\s?Đ\b"#, code: "VND", weight: 1.0),
        Cue(pattern: #"\bVIET\s?NAM\b|\bHA NOI\b|\bHANOI\b"#, code: "VND", weight: 0.6),
        Cue(pattern: #"₩|\bKRW\b"#, code: "KRW", weight: 1.0),
        Cue(pattern: #"\bJPY\b|円"#, code: "JPY", weight: 1.0),
        Cue(pattern: #"\bUSD\b|US\$"#, code: "USD", weight: 1.0),
        // A state and a ZIP code (`TX 75087`), not any two letters before five digits (`CS 23304`).
        Cue(pattern: usStateAndZIP, code: "USD", weight: 0.5),
        Cue(pattern: usPhone, code: "USD", weight: 0.4),
        Cue(pattern: #"\$\s?\d"#, code: "USD", weight: 0.3),
    ]

    /// The US states' and DC's postal abbreviations, as a regex group (also what makes a merchant line a place).
    static let usStates =
        "(AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|"
        + "NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY)"

    /// Compiled once; the patterns are constants, so failure to compile is a programming error caught by tests.
    static let compiled: [(Cue, NSRegularExpression)] = cues.compactMap { cue in
        (try? NSRegularExpression(pattern: cue.pattern)).map { (cue, $0) }
    }

    /// Weighs every cue over the lines and returns the strongest currency, or nil when there is no cue at all.
    /// A dollar sign alone is weak; North-American cues turn it into USD, GST/HST into CAD.
    public static func detect(lines: [String]) -> CurrencyGuess? {
        var scores: [String: Double] = [:]
        var firstLine: [String: (Int, String)] = [:]
        var matched: Set<String> = []
        for (index, line) in lines.enumerated() {
            let upper = line.uppercased()
            let range = NSRange(upper.startIndex..., in: upper)
            // Each cue counts once per receipt: twenty "$" signs are still one weak hint.
            for (cue, regex) in compiled
            where !matched.contains(cue.pattern) && regex.firstMatch(in: upper, range: range) != nil {
                matched.insert(cue.pattern)
                scores[cue.code, default: 0] += cue.weight
                if firstLine[cue.code] == nil { firstLine[cue.code] = (index, cue.pattern) }
            }
        }
        // GST with a dollar sign and Canadian cues is Canada; a lone "$" stays USD at low confidence. A US state
        // with its ZIP code is the United States (`Ontario, CA 91764`), whatever else the page shares with Canada.
        if scores["CAD"] != nil, !matched.contains(usStateAndZIP), let usd = scores["USD"] {
            scores["CAD", default: 0] += usd
        }
        guard let best = scores.max(by: { $0.value < $1.value || ($0.value == $1.value && $0.key > $1.key) }) else {
            return nil
        }
        let (lineIndex, pattern) = firstLine[best.key] ?? (0, "")
        return CurrencyGuess(
            code: best.key, confidence: min(1, best.value), lineIndex: lineIndex,
            reason: "matched /\(pattern)/ on line \(lineIndex + 1)")
    }

    /// The country a currency the detector finds belongs to, or nil for shared currencies (EUR).
    public static func country(of currency: String) -> String? {
        [
            "MYR": "Malaysia", "USD": "the United States", "CAD": "Canada", "GBP": "the United Kingdom",
            "AUD": "Australia", "SGD": "Singapore", "AED": "the United Arab Emirates", "INR": "India", "PLN": "Poland",
            "IDR": "Indonesia", "VND": "Vietnam", "KRW": "South Korea", "JPY": "Japan",
        ][currency]
    }

    /// Whether dates under this currency print the month first (`03/04` = March 4).
    public static func isMonthFirst(currency: String?) -> Bool {
        currency == "USD"
    }
}
