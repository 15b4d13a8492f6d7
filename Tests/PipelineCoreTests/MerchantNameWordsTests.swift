import Testing

@testable import PipelineCore

/// How a name line's text is tidied before it is offered as the merchant (`MerchantExtractor.cleaned`).
@Suite struct MerchantNameWordsTests {
    @Test(arguments: [
        ("Crowne Plaza Dunda1k", "Crowne Plaza Dundalk"), ("LiTly 0'Brlens", "LiTly O'Brlens"),
        ("CAFE B0OKS", "CAFE BOOKS"), ("MAR1NA BAY", "MARINA BAY"),
    ])
    func aZeroOrOneBetweenLettersIsTheLetterItLooksLike(_ read: String, _ name: String) {
        #expect(MerchantExtractor.cleaned(read) == name)
    }

    @Test(arguments: [
        "London EC1R 5BX", "7-Eleven", "H20 HAND CARWASH", "Store #0208", "BEST BUY #994", "Forever 21", "Dubai Mal1",
        "Japan 49", "B1 Cafe", "Studio 10",
    ])
    func otherDigitsStayAsRead(_ read: String) {
        #expect(MerchantExtractor.cleaned(read) == read)
    }

    @Test func straySymbolsAtTheEndsAndDoubledSpacesGo() {
        #expect(MerchantExtractor.cleaned("** Panda   Express ¥") == "Panda Express Y")
    }
}
