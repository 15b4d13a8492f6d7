import PipelineCore
import Testing

/// How a PDF's pages become receipts: a page with its own merchant, date and total starts one, any other page
/// continues the one before; a receipt of too many pages waits for a person.
@Suite struct ReceiptPageGroupingTests {
    private static let header = ReceiptPageGrouping.PageContent(hasMerchant: true, hasDate: true, hasTotal: true)
    private static let itemsOnly = ReceiptPageGrouping.PageContent(hasMerchant: false, hasDate: false, hasTotal: false)
    private static let carriedTotal = ReceiptPageGrouping.PageContent(
        hasMerchant: false, hasDate: false, hasTotal: true)
    private static let headerNoTotal = ReceiptPageGrouping.PageContent(
        hasMerchant: true, hasDate: true, hasTotal: false)

    @Test func threeReceiptsOfAPageEachAreThreeReceipts() {
        #expect(ReceiptPageGrouping.receipts([Self.header, Self.header, Self.header]) == [0...0, 1...1, 2...2])
    }

    @Test func aPageWithoutAHeaderOfItsOwnContinuesTheReceiptBefore() {
        #expect(ReceiptPageGrouping.receipts([Self.headerNoTotal, Self.carriedTotal]) == [0...1])
        #expect(
            ReceiptPageGrouping.receipts([Self.header, Self.itemsOnly, Self.carriedTotal, Self.header])
                == [0...2, 3...3])
        // The first page starts a receipt whatever it holds: no page is left out.
        #expect(ReceiptPageGrouping.receipts([Self.itemsOnly, Self.header]) == [0...0, 1...1])
    }

    @Test func aReceiptOfMorePagesThanAllowedWaitsForAPerson() {
        let finding = ReceiptPageGrouping.tooManyPagesFinding(pages: 50)
        #expect(ReviewPolicy.reason(for: finding) == .tooManyPages)
        #expect(finding.message.contains("50 pages"))
        let assessment = ReviewPolicy.decide(
            ReconciliationResult(draft: ExpenseDraft(), outcome: .balanced, findings: []), otherFindings: [finding],
            acceptance: { _ in
                AcceptanceDecision(
                    fields: KeyField.allCases.map { FieldTrust(field: $0, probability: 1, threshold: 0.5, why: "") })
            })
        #expect(assessment.status == .needsReview)
        #expect(assessment.reasons == [.tooManyPages])
    }
}
