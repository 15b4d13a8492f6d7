import Foundation

/// The receipt's own web or mail domain: it confirms a name read at the top, and names the merchant when nothing
/// there reads as a name.
extension MerchantExtractor {
    /// The receipt's own web or mail domain, not a platform's (`facebook.com/…`, `…@gmail.com`).
    struct Website {
        /// The domain's name as printed, joined where OCR split it (`www .Sus Tecakes .com` → `SusTecakes`).
        var name: String
        /// `name` normalized as `TextSimilarity` compares names (`SUSTECAKES`).
        var normalized: String
        /// The line it is printed on.
        var line: Int
    }

    /// The first own domain on the receipt (`www.clockeddiner.com`, `info@guacamole.de` → `clockeddiner`,
    /// `guacamole`).
    static func website(in lines: [ReceiptLine]) -> Website? {
        let topLevel = "(com|net|org|co|fr|de|es|it|ca|au|sg|my|uk)\\b"
        for line in lines {
            // `www .Sus Tecakes .com`, `popular. com, my`: OCR spaces and commas around the dots; after `www.` the name
            // runs on to its top-level domain across up to two spaces. The top-level domain is in lower case: `Los
            // Angeles, CA` is a place. A top-level domain that a word follows is a word (`Avda. de la Constitución`).
            let text = line.text
                .replacingOccurrences(
                    of: #"\s*[.,]\s*(?="# + topLevel + #"(?!\s+\p{L}))"#, with: ".",
                    options: [.regularExpression, .caseInsensitive]
                )
                .replacingOccurrences(
                    of: #"\bwww\s*[.,]\s*"#, with: "www.", options: [.regularExpression, .caseInsensitive])
            guard
                let range = text.range(
                    of: #"([Ww]{3}\.[A-Za-z0-9-]+( [A-Za-z0-9-]+){0,2}|[A-Za-z0-9-]{3,40})\."# + topLevel,
                    options: .regularExpression)
            else { continue }
            let match = text[range]
            var label = String(match[..<(match.lastIndex(of: ".") ?? match.endIndex)]).replacingOccurrences(
                of: " ", with: "")
            if label.lowercased().hasPrefix("www") { label = String(label.dropFirst(3).drop { $0 == "." }) }
            label = withoutSurveyWords(label)
            let normalized = TextSimilarity.normalized(label)
            if normalized.count >= 3, !platformDomains.contains(normalized) {
                // `chipotle` names the merchant `Chipotle`.
                let name =
                    label.contains(where: \.isUppercase) ? label : label.prefix(1).uppercased() + label.dropFirst()
                return Website(name: name, normalized: normalized, line: line.index)
            }
        }
        return nil
    }

    /// `tellsubway`, `krogerfeedback`, `talktowendys`: a survey site's name around the brand, without its survey
    /// word (when three letters or more are left).
    static func withoutSurveyWords(_ label: String) -> String {
        let lower = label.lowercased()
        for prefix in ["tell", "talkto"] where lower.hasPrefix(prefix) && lower.count >= prefix.count + 3 {
            return String(label.dropFirst(prefix.count))
        }
        for suffix in ["feedback", "survey", "listens", "cares"]
        where lower.hasSuffix(suffix) && lower.count >= suffix.count + 3 {
            return String(label.dropLast(suffix.count))
        }
        return label
    }

    /// Domains of services that receipts name besides the merchant's own: social networks, mail, stock photos, and
    /// the point-of-sale and ordering services that print receipts for many merchants.
    static let platformDomains: Set<String> = [
        "FACEBOOK", "INSTAGRAM", "TWITTER", "YOUTUBE", "GOOGLE", "GMAIL", "HOTMAIL", "YAHOO", "OUTLOOK", "SHUTTERSTOCK",
        "DREAMSTIME", "SQUAREUP", "TOASTTAB", "CLOVER", "SHOPIFY", "PAYPAL", "LIGHTSPEEDHQ", "GENIUSPOS", "OPENTABLE",
        "UBEREATS", "GRUBHUB", "DOORDASH", "DELIVEROO", "FOODPANDA", "GRAB",
    ]
}
