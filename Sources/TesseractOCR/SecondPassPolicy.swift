import PipelineCore

/// Decides whether a page deserves a second OCR pass, and which parts of it the second pass re-reads.
///
/// Measured on the dev fixtures (README, `pipeline ocr-bench`): Tesseract's psm 6 garbles some date lines that psm 4
/// reads correctly once the line is cut out of the page. So a second pass runs only when the first text shows no
/// date, and it re-reads only the lines that could hold one: lines with a digit that the first pass read with low
/// confidence, each in a strip of the page around it. A missing total line alone is no reason: re-reading for it
/// recovered no total on the dev fixtures and cost 4% more CPU.
public enum SecondPassPolicy {
    /// True when `text` has no date-like token.
    public static func needsSecondPass(_ text: String) -> Bool {
        !containsDate(text.lowercased())
    }

    /// The strips of `page` to read again: full page width, around each line that has a digit and a mean word
    /// confidence below `confidence`, padded by half the line's height above and below; strips that overlap are
    /// merged. Top to bottom, within the page.
    public static func stripsToReread(in page: OCRPage, belowConfidence confidence: Double) -> [BoundingBox] {
        var spans: [(top: Int, bottom: Int)] = []
        for line in page.lines where line.text.contains(where: \.isNumber) {
            let mean = line.words.map(\.confidence).reduce(0, +) / Double(max(line.words.count, 1))
            guard mean < confidence else { continue }
            let padding = line.box.height / 2
            let top = max(0, line.box.top - padding)
            let bottom = min(page.height, line.box.bottom + padding)
            guard bottom > top else { continue }
            spans.append((top, bottom))
        }
        var merged: [(top: Int, bottom: Int)] = []
        for span in spans.sorted(by: { $0.top < $1.top }) {
            if let last = merged.last, span.top <= last.bottom {
                merged[merged.count - 1].bottom = max(last.bottom, span.bottom)
            } else {
                merged.append(span)
            }
        }
        return merged.map { BoundingBox(left: 0, top: $0.top, width: page.width, height: $0.bottom - $0.top) }
    }

    /// A numeric date (`11/01/2019`, `2019-01-11`, `1.3.18`) or a day with a month name (`05 MAR 2018`, `Jan 5, 2019`).
    static func containsDate(_ lowered: String) -> Bool {
        let numeric = /(^|[^0-9])[0-9]{1,4}[\/.\-][0-9]{1,2}[\/.\-][0-9]{2,4}([^0-9]|$)/
        let dayFirst = /[0-9]{1,2} ?(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* ?[0-9]{2,4}/
        let monthFirst = /(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* ?[0-9]{1,2},? ?[0-9]{2,4}/
        return lowered.contains(numeric) || lowered.contains(dayFirst) || lowered.contains(monthFirst)
    }
}
