import Foundation
import PipelineCore
import Testing

/// A receipt read from several pages: a page that prints a total of its own, not the receipt's, holds it for review.
@Suite struct PageTotalsTests {
    /// Pages of 200 px, one below the other, each line 30 px below the one before from the top of its page, its
    /// words 10 px a character.
    private static func stacked(_ pages: [[String]]) -> (page: OCRPage, starts: [Double]) {
        var lines: [OCRLine] = []
        for (pageIndex, texts) in pages.enumerated() {
            for (lineIndex, text) in texts.enumerated() {
                let top = pageIndex * 200 + 10 + lineIndex * 30
                var left = 10
                var words: [OCRWord] = []
                for word in text.split(separator: " ") {
                    words.append(
                        OCRWord(
                            text: String(word), confidence: 95,
                            box: BoundingBox(left: left, top: top, width: word.count * 10, height: 20)))
                    left += (word.count + 1) * 10
                }
                lines.append(OCRLine(words: words, box: BoundingBox(enclosing: words.map(\.box))))
            }
        }
        let page = OCRPage(lines: lines, width: 300, height: 200 * pages.count, meanConfidence: 95)
        return (page, pages.indices.map { Double($0) / Double(pages.count) })
    }

    private static let receipt = [
        "CORNER BAKERY", "Date: 24/11/2026", "SOURDOUGH 4.20", "CROISSANT 1.80", "TOTAL 6.00",
    ]

    @Test func aJoinedPageWithAnotherTotalIsNamedAndHoldsTheReceipt() throws {
        let (page, starts) = Self.stacked([Self.receipt, ["TOTAL 5.50"]])
        let findings = PageTotals.findings(
            page: page, pageStarts: starts, reader: .ppocr, total: Decimal(string: "6.00"))
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        #expect(finding.message.hasPrefix("page 2 of 2 prints its own total 5.50, not the receipt's 6.00"))
        #expect(ReviewPolicy.reason(for: finding) == .pageTotalDiffers)
        let assessment = ReviewPolicy.decide(
            ReconciliationResult(draft: ExpenseDraft(), outcome: .balanced, findings: []), otherFindings: findings,
            acceptance: { _ in
                AcceptanceDecision(
                    fields: KeyField.allCases.map { FieldTrust(field: $0, probability: 1, threshold: 0.5, why: "") })
            })
        #expect(assessment.status == .needsReview)
        #expect(assessment.reasons == [.pageTotalDiffers])
    }

    @Test func pagesThatCarryTheReceiptsTotalOrNoneOfTheirOwnAreFine() {
        let continued = Self.stacked([Array(Self.receipt.dropLast()), ["COFFEE 3.10", "TOTAL 6.00"]])
        #expect(
            PageTotals.findings(page: continued.page, pageStarts: continued.starts, reader: .ppocr, total: 6).isEmpty)
        let itemsOnly = Self.stacked([Self.receipt, ["COFFEE 3.10"]])
        #expect(
            PageTotals.findings(page: itemsOnly.page, pageStarts: itemsOnly.starts, reader: .ppocr, total: 6).isEmpty)
        let single = Self.stacked([Self.receipt + ["TOTAL 5.50"]])
        #expect(
            PageTotals.findings(page: single.page, pageStarts: single.starts, reader: .ppocr, total: 6).isEmpty,
            "one page")
    }
}
