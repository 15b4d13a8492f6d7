import PipelineCore
import Testing

/// The key learned merchants are stored and found under (`merchant_aliases.header_key`), as migration 0012's SQL
/// function `receipt_header_key` computed it until migration 0098, by the same rule.
@Suite struct MerchantHeaderTests {
    static let page = "  Lidl Dienstleistung  \nGmbH & Co. KG\nFiliale 1234\nTOTAL 5.50"

    @Test func theMerchantsLinesInPageOrderAreItsHeader() {
        #expect(MerchantHeader.key(ocrText: Self.page, merchantLines: [1, 0]) == "LIDL DIENSTLEISTUNG GMBH CO KG")
    }

    @Test func withoutMerchantLinesTheFirstLineIsTheHeader() {
        #expect(MerchantHeader.key(ocrText: Self.page, merchantLines: []) == "LIDL DIENSTLEISTUNG")
        #expect(
            MerchantHeader.key(ocrText: Self.page, merchantLines: [9]) == "LIDL DIENSTLEISTUNG",
            "a line the page does not have is no header")
    }

    @Test func aHeaderWithoutLettersOrDigitsHasNoKey() {
        #expect(MerchantHeader.key(ocrText: "*** ---\nTOTAL 5.50", merchantLines: [0]) == nil)
        #expect(MerchantHeader.key(ocrText: "", merchantLines: []) == nil)
    }

    @Test func lettersBeyondASCIIStayInTheKey() {
        #expect(MerchantHeader.key(ocrText: "Grand-Café 12, Zürich", merchantLines: [0]) == "GRAND CAFÉ 12 ZÜRICH")
    }
}
