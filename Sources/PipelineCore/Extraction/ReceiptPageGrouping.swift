import Foundation

/// Which receipts the pages of one PDF make, by what each page holds when read on its own: a scanner batch of
/// several receipts, or one receipt over several pages. The one place this is decided: `pipeline ingest` splits a
/// PDF by it, and the pipeline holds a receipt of more pages than it allows for review.
public enum ReceiptPageGrouping {
    /// Pages one receipt may have. A receipt of more (a PDF ingested whole with `ingest.pdfPages: file`, or pages
    /// no one of which has a header of its own) is held for review: its pages are read shrunk to fit one image,
    /// and it is more likely several receipts than one.
    public static let maximumPagesPerReceipt = 5

    /// What one page, read on its own, holds of a receipt's key fields.
    public struct PageContent: Sendable, Equatable {
        public var hasMerchant: Bool
        public var hasDate: Bool
        public var hasTotal: Bool

        public init(hasMerchant: Bool, hasDate: Bool, hasTotal: Bool) {
            self.hasMerchant = hasMerchant
            self.hasDate = hasDate
            self.hasTotal = hasTotal
        }

        /// What the rules read on `page`. A total only inferred from items or a subtotal is not the page's own.
        public init(_ page: OCRPage) {
            let draft = ReceiptExtractor.extract(page)
            self.init(
                hasMerchant: draft.merchant != nil, hasDate: draft.date != nil,
                hasTotal: draft.total != nil && !draft.isTotalInferred)
        }

        /// A page with its own merchant, date and total is a receipt of its own.
        public var startsReceipt: Bool { hasMerchant && hasDate && hasTotal }
    }

    /// The receipts `pages` make, in order, each as the range of its zero-based page indices: a page with its own
    /// merchant, date and total starts a receipt; any other page (no header, items or a total carried over)
    /// continues the one before. The first page always starts one. Every page is in exactly one range.
    public static func receipts(_ pages: [PageContent]) -> [ClosedRange<Int>] {
        var starts: [Int] = []
        for (index, page) in pages.enumerated() where index == 0 || page.startsReceipt {
            starts.append(index)
        }
        return starts.enumerated().map { position, start in
            let end = position + 1 < starts.count ? starts[position + 1] - 1 : pages.count - 1
            return start...end
        }
    }

    /// The finding that holds a receipt of `pages` pages (over `maximumPagesPerReceipt`) for review.
    public static func tooManyPagesFinding(pages: Int) -> Finding {
        Finding(
            .tooManyPages,
            "\(pages) pages read as one receipt (at most \(maximumPagesPerReceipt)): they were read shrunk into one "
                + "image and may be several receipts; check every page against the fields, or split the PDF and "
                + "ingest it again with ingest.pdfPages: content")
    }
}
