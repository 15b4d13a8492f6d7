import Foundation
import PipelineCore
import ReceiptIntake

/// Receipt PDFs for tests, written with `PDFWriter`: text placed where a till prints it, so a born-digital receipt
/// can be made from a shipped receipt's label, and pages of any size or count for the guards.
public enum TestPDF {
    /// A receipt page 80 mm (227 pt) wide: the merchant centered on top, then the lines, each `(left, right)` pair
    /// with the right part flush right (amounts).
    public static func receiptPage(merchant: String?, lines: [(String, String)]) -> PDFWriter.Page {
        let width = 227.0
        let margin = 10.0
        let advance = PDFWriter.fontSize * 0.6
        var texts = merchant.map { [PDFWriter.Text(x: (width - Double($0.count) * advance) / 2, y: 20, $0)] } ?? []
        for (index, line) in lines.enumerated() {
            let y = 20 + PDFWriter.lineHeight * Double(index + 2)
            if !line.0.isEmpty { texts.append(PDFWriter.Text(x: margin, y: y, line.0)) }
            if !line.1.isEmpty {
                texts.append(PDFWriter.Text(x: width - margin - Double(line.1.count) * advance, y: y, line.1))
            }
        }
        return PDFWriter.Page(width: width, height: 20 + PDFWriter.lineHeight * Double(lines.count + 4), texts: texts)
    }

    /// The lines a till would print for a shipped receipt's label: merchant, date, an item, the total.
    public static func receiptPage(for label: ReceiptLabel, rawDate: String) -> PDFWriter.Page {
        receiptPage(
            merchant: label.merchant ?? "SHOP",
            lines: [
                ("TAX INVOICE", ""), ("Date: \(rawDate)", "10:42"), ("", ""), ("GOODS", label.total ?? ""),
                ("", ""), ("TOTAL", label.total ?? ""), ("CASH", label.total ?? ""), ("THANK YOU", ""),
            ])
    }

    /// A page of a receipt that goes on from the page before: no header, the items, and the total when given.
    public static func continuationPage(items: [(String, String)], total: String?) -> PDFWriter.Page {
        receiptPage(merchant: nil, lines: items + (total.map { [("", ""), ("TOTAL", $0)] } ?? []))
    }

    /// The PDF of `pages`.
    public static func document(_ pages: [PDFWriter.Page]) -> Data { Data(PDFWriter.document(pages)) }

    /// A PDF of `count` empty pages of `width` × `height` points.
    public static func emptyPages(_ count: Int, width: Double = 200, height: Double = 200) -> Data {
        emptyPages(sizes: Array(repeating: (width, height), count: count))
    }

    /// A PDF of empty pages of these sizes in points.
    public static func emptyPages(sizes: [(width: Double, height: Double)]) -> Data {
        document(sizes.map { PDFWriter.Page(width: $0.width, height: $0.height) })
    }
}
