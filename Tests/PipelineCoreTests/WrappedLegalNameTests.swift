import Testing

@testable import PipelineCore

/// A legal name wrapped over the top lines is one name, from whichever of its lines it is read
/// (`MerchantExtractor.withWrappedLegalName`).
@Suite struct WrappedLegalNameTests {
    static let lines = ReceiptPage(
        OCRPage(
            text: """
                AIK HUAT HARDWARE
                ENTERPRISE (SETIA
                ALAM) SDN BHD
                822737-X
                NO. 17-G, JALAN SETIA INDAH
                SIMPLIFIED TAX INVOICE
                TOTAL 12.50
                """)
    ).lines

    @Test func eachOfItsLinesReadsTheWholeName() {
        let candidates = MerchantExtractor.candidates(lines: Self.lines, headerLines: [])
        for line in 0...2 {
            let candidate = candidates.first { $0.lines.contains(line) && $0.features[.brand] == nil }
            #expect(candidate?.name == "AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD", "line \(line)")
            #expect(candidate?.lines == [0, 1, 2], "line \(line)")
        }
    }

    @Test func aNameAboveItsAddressStaysOneLine() {
        let lines = ReceiptPage(OCRPage(text: "KEDAI PAPAN YEW CHUAN\nLOT 276 JALAN BANTING\nTOTAL 12.50")).lines
        let candidates = MerchantExtractor.candidates(lines: lines, headerLines: [])
        #expect(candidates.first?.name == "KEDAI PAPAN YEW CHUAN")
        #expect(candidates.first?.lines == [0])
    }
}
