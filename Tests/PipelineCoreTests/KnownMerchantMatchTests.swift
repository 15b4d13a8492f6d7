import Foundation
import Testing

@testable import PipelineCore

/// A line offers a known merchant only when it reads like one over its whole text and over the words that say which
/// business it is: another restaurant or hardware shop sharing the generic words is not the known one
/// (`MerchantExtractor.distinctiveWordsAgree`).
@Suite struct KnownMerchantMatchTests {
    /// A receipt headed by `header`, with an address, a date and a total below it.
    static func page(_ header: String) -> OCRPage {
        OCRPage(
            text: [
                header, "NO 12, JALAN SS2/64", "47300 PETALING JAYA", "Date: 10/02/2017", "NASI LEMAK 7.40",
                "TOTAL 7.40",
            ]
            .joined(separator: "\n"))
    }

    @Test(
        arguments: [
            ("B & BEST RESTAURANT", "IBERIA RESTAURANT", "B & BEST RESTAURANT"),
            ("C W KHOO HARDWARE SDN BHD", "WAHIN HARDWARE SDN BHD", "C W KHOO HARDWARE SDN BHD"),
            ("CREST FOODS", "Fresh Foods", "CREST FOODS"),
            ("IBERIA RESTAURAN", "IBERIA RESTAURANT", "IBERIA RESTAURANT"),
            ("99 SPEED NART S/B", "99 SPEED MART S/B", "99 SPEED MART S/B"),
        ])
    func aHeaderOffersAKnownMerchantOnlyWhenItsOwnWordsReadAlike(header: String, known: String, expected: String) {
        let merchant = KnownMerchant(name: known, readings: [known], confirmations: 3)

        let draft = ReceiptExtractor.extract(Self.page(header), known: [merchant])

        #expect(draft.merchant?.value == expected)
        #expect((draft.evidence?.merchant?.features[.knownMerchant] != nil) == (expected == known))
    }

    /// Both texts read whole as alike as `knownMatch` asks (so the whole-text match alone would take them); only the
    /// first seven name one merchant. With no generic word, the words are the whole text: `LDL` for `LIDL` holds.
    @Test(
        arguments: [
            ("LDL", "LIDL", true), ("Guardian Health And Beauty SDN BHD", "buardian Health And Beauty SDN BHD", true),
            ("SANYU STATIONERY SHOP", "SANYUSTATIONERYSHOP", true), ("99 5PEED MART S/8", "99 SPEED MART S/B", true),
            ("IBERIA RESTAURAN", "IBERIA RESTAURANT", true),
            (
                "AIK_HUAT_HARDWARE ENTERPRISEY(SETIA ALAM) SDN BHD",
                "AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD", true
            ),
            ("B & BEST RESTAURANT", "IBERIA RESTAURANT", false), ("CREST FOODS", "Fresh Foods", false),
        ])
    func distinctiveWordsDecideBetweenTextsAlikeOverall(first: String, second: String, agree: Bool) {
        #expect(TextSimilarity.similarity(first, second) >= MerchantExtractor.knownMatch)
        #expect(MerchantExtractor.distinctiveWordsAgree(first, second) == agree)
        #expect(MerchantExtractor.distinctiveWordsAgree(second, first) == agree)
    }
}
