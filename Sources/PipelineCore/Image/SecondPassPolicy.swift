/// Decides whether a page deserves a second OCR pass with another page segmentation mode.
///
/// Measured on the dev fixtures (README, `pipeline ocr-bench`): Tesseract's psm 6 misses dates and totals on some
/// receipts that psm 4 reads, so a second pass runs when the first text shows no date or no total line.
public enum SecondPassPolicy {
    /// True when `text` has no date-like token or no line pairing a total keyword with an amount.
    public static func needsSecondPass(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return !containsDate(lowered) || !containsTotalLine(lowered)
    }

    /// A numeric date (`11/01/2019`, `2019-01-11`, `1.3.18`) or a day with a month name (`05 MAR 2018`, `Jan 5, 2019`).
    static func containsDate(_ lowered: String) -> Bool {
        let numeric = /(^|[^0-9])[0-9]{1,4}[\/.\-][0-9]{1,2}[\/.\-][0-9]{2,4}([^0-9]|$)/
        let dayFirst = /[0-9]{1,2} ?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* ?[0-9]{2,4}/
        let monthFirst = /(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* ?[0-9]{1,2},? ?[0-9]{2,4}/
        return lowered.contains(numeric) || lowered.contains(dayFirst) || lowered.contains(monthFirst)
    }

    /// A line with a total-like keyword followed by an amount with two decimals.
    static func containsTotalLine(_ lowered: String) -> Bool {
        lowered.split(separator: "\n").contains { line in
            line.contains(/(total|amount|balance|due|jumlah).*[0-9][.,][0-9]{2}/)
        }
    }
}
