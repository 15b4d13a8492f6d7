import Testing

@testable import PipelineCore

/// A company introduced as the business's owner (`Owned By :` above it) is not the name the shop trades under, so it
/// is no merchant candidate; an owner named on the heading's own line is left to the fit (`MerchantExtractor.ownerLines`).
@Suite struct MerchantOwnerTests {
    /// `sroie_471`'s top lines as PP-OCR read them, with `heading` above the owner's line.
    static func page(heading: String) -> [ReceiptLine] {
        ReceiptPage(
            OCRPage(
                text: """
                    SANYUSTATIONERYSHOP
                    NO. 31G&33G, JALAN SETIA INDAH X,U13/X
                    40170 SETIA ALAM
                    Mobile /Whatsapps : +6012-918 7937
                    Tel:+603-3362 4137
                    GST ID No: 001531760640
                    TAX INVOICE
                    \(heading)
                    SANYU SUPPLY SDN BHD (1135772-K)
                    CASH SALES COUNTER
                    3×2.9000 8.70 SR
                    Total 8.70
                    """)
        ).lines
    }

    @Test(arguments: ["Owned By:", "Owned By :", "Dimiliki oleh", "Operated by"])
    func theOwnerBelowItsHeadingIsNoCandidate(heading: String) {
        let candidates = MerchantExtractor.candidates(lines: Self.page(heading: heading), headerLines: [])
        #expect(!candidates.contains { $0.name.uppercased().contains("SANYU SUPPLY") })
        #expect(candidates.contains { $0.name == "SANYUSTATIONERYSHOP" })
    }

    @Test(arguments: ["Branch:", "Owned By : TAX INVOICE", ""])
    func aLineBelowAnyOtherHeadingStaysACandidate(heading: String) {
        let candidates = MerchantExtractor.candidates(lines: Self.page(heading: heading), headerLines: [])
        #expect(candidates.contains { $0.name.uppercased().contains("SANYU SUPPLY") })
    }

    @Test func anOwnerNamedOnItsHeadingsLineStaysACandidate() {
        let lines = ReceiptPage(OCRPage(text: "Owner by Castle Blue S/B\n(1035693-T)\nTotal 8.70")).lines
        #expect(
            MerchantExtractor.candidates(lines: lines, headerLines: []).contains { $0.name.contains("Castle Blue") })
    }
}
