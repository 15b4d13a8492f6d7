import Foundation
import PipelineCore

/// Whether labeled receipt fields appear in OCR text: the ceiling for any extractor reading that text.
///
/// Comparisons are forgiving the way printed receipts vary: money with or without thousands separators and with a
/// decimal point or comma; dates in the common printed forms; merchants ignoring case, spaces and punctuation.
package enum LabelPresence {
    /// True when `total` (e.g. `1007.50`) is printed in `text` as a whole amount.
    package static func containsAmount(_ total: Decimal, in text: String) -> Bool {
        let normalized = singleSpaced(text)
        return amountForms(total).contains { containsDelimited($0, in: normalized) }
    }

    /// True when `date` is printed in `text` in a common form (day/month order either way, 2- or 4-digit year,
    /// `/ - .` separators, month names).
    package static func containsDate(year: Int, month: Int, day: Int, in text: String) -> Bool {
        let normalized = singleSpaced(text)
        return dateForms(year: year, month: month, day: day).contains { containsDelimited($0, in: normalized) }
    }

    /// True when `merchant` appears in `text`, ignoring case, spaces and punctuation, with up to
    /// `1 − minimumSimilarity` of its characters misread (the bench scores a merchant right at 0.8).
    package static func containsMerchant(_ merchant: String, in text: String, minimumSimilarity: Double = 0.8) -> Bool {
        let needle = Array(alphanumerics(merchant).unicodeScalars)
        guard !needle.isEmpty else { return false }
        let allowedEdits = Int((Double(needle.count) * (1 - minimumSimilarity)).rounded(.down))
        return smallestEditDistance(of: needle, inside: Array(alphanumerics(text).unicodeScalars)) <= allowedEdits
    }

    /// The fewest insertions, deletions and substitutions turning `needle` into some substring of `haystack`
    /// (Sellers' approximate substring matching: a match may start anywhere, O(needle × haystack)).
    package static func smallestEditDistance(of needle: [Unicode.Scalar], inside haystack: [Unicode.Scalar]) -> Int {
        var previous = Array(0...needle.count)
        var best = previous[needle.count]
        for character in haystack {
            var current = [0]
            current.reserveCapacity(needle.count + 1)
            for (index, wanted) in needle.enumerated() {
                let substitution = previous[index] + (wanted == character ? 0 : 1)
                current.append(min(substitution, previous[index + 1] + 1, current[index] + 1))
            }
            best = min(best, current[needle.count])
            previous = current
        }
        return best
    }

    /// The printed forms of an amount: `1007.50`, `1,007.50`, `1.007,50`, `1007,50`.
    package static func amountForms(_ amount: Decimal) -> Set<String> {
        let plain = NSDecimalNumber(decimal: amount).stringValue
        let negative = plain.hasPrefix("-")
        let digits = negative ? String(plain.dropFirst()) : plain
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        let integer = String(parts[0])
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        while fraction.count < 2 { fraction += "0" }
        let grouped = { (separator: String) in grouping(integer, separator: separator) }
        var forms: Set<String> = [
            integer + "." + fraction, integer + "," + fraction, grouped(",") + "." + fraction,
            grouped(".") + "," + fraction,
        ]
        if fraction.allSatisfy({ $0 == "0" }) && integer.count >= 4 {
            forms.formUnion([grouped(","), grouped(".")])
        }
        return forms
    }

    /// Day/month orders, separators, padding, year lengths, ISO, and month-name forms.
    package static func dateForms(year: Int, month: Int, day: Int) -> Set<String> {
        let years = [String(year), String(format: "%02d", year % 100)]
        let days = Set([String(day), String(format: "%02d", day)])
        let months = Set([String(month), String(format: "%02d", month)])
        var forms: Set<String> = []
        for separator in ["/", "-", "."] {
            for y in years {
                for d in days {
                    for m in months {
                        forms.insert(d + separator + m + separator + y)
                        forms.insert(m + separator + d + separator + y)
                    }
                }
            }
            forms.insert(
                String(year) + separator + String(format: "%02d", month) + separator + String(format: "%02d", day))
        }
        let names = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        guard (1...12).contains(month) else { return forms }
        let name = names[month - 1]
        for y in years {
            for d in days {
                for separator in ["", " ", "-", "/"] {
                    forms.insert(d + separator + name + separator + y)
                }
                forms.insert(name + " " + d + ", " + y)
                forms.insert(name + d + "," + y)
                forms.insert(name + " " + d + " " + y)
                forms.insert(name + d + y)
            }
        }
        return forms
    }

    /// Groups an integer's digits by thousands: `1234567` → `1,234,567`.
    private static func grouping(_ integer: String, separator: String) -> String {
        var groups: [String] = []
        var rest = Substring(integer)
        while rest.count > 3 {
            groups.insert(String(rest.suffix(3)), at: 0)
            rest = rest.dropLast(3)
        }
        groups.insert(String(rest), at: 0)
        return groups.joined(separator: separator)
    }

    /// True when `needle` occurs in `haystack` with no digit directly before or after it.
    private static func containsDelimited(_ needle: String, in haystack: String) -> Bool {
        var searchStart = haystack.startIndex
        while let range = haystack.range(of: needle, range: searchStart..<haystack.endIndex) {
            let before =
                range.lowerBound > haystack.startIndex ? haystack[haystack.index(before: range.lowerBound)] : " "
            let after = range.upperBound < haystack.endIndex ? haystack[range.upperBound] : " "
            if !before.isNumber && !after.isNumber { return true }
            searchStart = haystack.index(after: range.lowerBound)
        }
        return false
    }

    /// Lowercased, with every run of whitespace (newlines included) turned into one space.
    private static func singleSpaced(_ text: String) -> String {
        text.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private static func alphanumerics(_ text: String) -> String {
        String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }
}
