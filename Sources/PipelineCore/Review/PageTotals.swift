import Foundation

/// The one place that says when a page of a receipt read from several pages prints a total that is not the
/// receipt's. Ingest joins a page without a header of its own to the receipt before it (`ReceiptPageGrouping`), so a
/// receipt whose scan lost its header, or a slip of another shop, can end up as a later page of another receipt; a
/// page that prints its own total, different from the receipt's, says so, and the receipt waits for a person
/// (`ReviewReason.pageTotalDiffers`) instead of being accepted with a page it did not account for.
public enum PageTotals {
    /// One finding per page whose own total differs from `total`: the total the rules read on that page alone, when
    /// a total line prints it (`TOTAL 5.50`; not a sum of the page's items, which the rules also offer as a total).
    /// None for a receipt of one page, or without a total (which waits as incomplete anyway).
    /// - Parameters:
    ///   - page: the receipt's pages read as one, one below the other.
    ///   - pageStarts: where each page starts in `page`, as a fraction of its height (`ProcessedImage.pageStarts`).
    ///   - reader: the engine that read `page`, as extraction weighs it.
    ///   - total: the receipt's total as read.
    public static func findings(page: OCRPage, pageStarts: [Double], reader: PageReader, total: Decimal?) -> [Finding] {
        guard pageStarts.count > 1, let total else { return [] }
        return pages(of: page, starts: pageStarts).enumerated().compactMap { index, single in
            guard let own = printedTotal(single, reader: reader), own != total else { return nil }
            return Finding(
                .pageTotalDiffers, field: .total,
                "page \(index + 1) of \(pageStarts.count) prints its own total \(moneyText(own)), not the receipt's "
                    + "\(moneyText(total)): it may be another receipt joined to this one; check every page, or "
                    + "ingest the PDF again with ingest.pdfPages: perPage")
        }
    }

    /// Features that say a candidate's line is labelled as the total (`TOTAL`, `AMOUNT DUE`, a rounded total).
    private static let totalLineFeatures: [TotalFeature] = [.strongTotalLine, .totalLine, .roundedTotalLine]

    /// The total the rules read on `page`, when a total line prints it; nil for a page of items only.
    static func printedTotal(_ page: OCRPage, reader: PageReader) -> Decimal? {
        let (draft, candidates) = ReceiptExtractor.extractWithCandidates(page, reader: reader)
        guard let total = draft.total?.value, !draft.isTotalInferred else { return nil }
        let printed = candidates.total.contains { candidate in
            Decimal(string: candidate.value) == total && totalLineFeatures.contains { candidate.features[$0] != nil }
        }
        return printed ? total : nil
    }

    /// Each page's lines as a page of its own, as if read alone (boxes from the page's own top): a line belongs to
    /// the page its vertical middle lies on.
    static func pages(of page: OCRPage, starts: [Double]) -> [OCRPage] {
        let height = Double(max(page.height, 1))
        let tops = starts.map { Int(($0 * height).rounded()) }
        var lines = Array(repeating: [OCRLine](), count: starts.count)
        for line in page.lines {
            let middle = line.box.top + line.box.height / 2
            let index = tops.lastIndex { $0 <= middle } ?? 0
            func moved(_ box: BoundingBox) -> BoundingBox {
                BoundingBox(left: box.left, top: box.top - tops[index], width: box.width, height: box.height)
            }
            lines[index].append(
                OCRLine(
                    words: line.words.map { OCRWord(text: $0.text, confidence: $0.confidence, box: moved($0.box)) },
                    box: moved(line.box)))
        }
        return lines.enumerated().map { index, pageLines in
            let bottom = index + 1 < tops.count ? tops[index + 1] : page.height
            return OCRPage(
                lines: pageLines, width: page.width, height: max(1, bottom - tops[index]),
                meanConfidence: page.meanConfidence)
        }
    }
}
