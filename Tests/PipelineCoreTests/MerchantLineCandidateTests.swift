import Testing

@testable import PipelineCore

/// The merchant candidates the top lines offer (`MerchantExtractor.lineCandidates`): a legal name wrapped over the top
/// lines is one name, from whichever of its lines it is read (`withWrappedLegalName`); a line of OCR noise offers none.
@Suite struct MerchantLineCandidateTests {
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

    /// A city, a state and a ZIP code make a line a place, with a comma or without (`New York NY 10017`), as the page's
    /// country evidence reads them (`CurrencyDetector.usStateAndZIP`); a name is not one.
    @Test(arguments: [
        ("New York NY 10017", true), ("Los Angeles, CA 90036", true), ("Dallas TX 75087-1234", true),
        ("Sushi Yasuda", false),
    ])
    func aStateAndZIPCodeMakeALineAPlace(_ text: String, _ isPlace: Bool) {
        let lines = ReceiptPage(OCRPage(text: "\(text)\nTOTAL $13.50")).lines
        let candidate = MerchantExtractor.candidates(lines: lines, headerLines: []).first { $0.lines == [0] }
        #expect(candidate?.features[.stateAndZip] == (isPlace ? 1 : nil), "\(text)")
    }

    /// A town and a US state's name after a comma are a place, as a town and the state's abbreviation are; a name
    /// with a state's name in it (`New York Bagels`) is not.
    @Test(arguments: [
        ("GURNEE, Illinois", true), ("BRONX, New York", true), ("Kailua, HI", true), ("New York Bagels", false),
    ])
    func aTownAndAStatesNameAreAPlace(_ text: String, _ isPlace: Bool) {
        let lines = ReceiptPage(OCRPage(text: "\(text)\nTOTAL $13.50")).lines
        let candidate = MerchantExtractor.candidates(lines: lines, headerLines: []).first { $0.lines == [0] }
        #expect(candidate?.features[.placeOrPhone] == (isPlace ? 1 : nil), "\(text)")
    }

    /// `wr_30_14_8bbd8df6`'s logo read as `EAAAIRVENTURE`: every word repeats a letter three times in a row, so the line
    /// is OCR noise and offers no candidate; a name with a doubled letter (`MAMMA MIA`) is no noise.
    @Test func aLineOfOCRNoiseOffersNoCandidate() {
        let lines = ReceiptPage(OCRPage(text: "EAAAIRVENTURE\nOSHKOSH\n本本本车车本本\nMAMMA MIA\nTOTAL $13.50")).lines
        let names = MerchantExtractor.candidates(lines: lines, headerLines: []).map(\.name)
        #expect(!names.contains("EAAAIRVENTURE"))
        #expect(!names.contains("本本本车车本本"))
        #expect(names.contains("OSHKOSH"))
        #expect(names.contains("MAMMA MIA"))
    }

    /// A line of company suffixes completes the name above it; when OCR lost that name (Tesseract's `3180300` above
    /// `CO. (M) SDN BHD`, dev sroie_196) the suffixes name no business.
    @Test func companySuffixesWithoutANameAboveOfferNoCandidate() {
        let lost = ReceiptPage(OCRPage(text: "3180300\nCO. (M) SDN BHD\nNo 8, Jalan 7/118B\nTOTAL RM 5.75")).lines
        #expect(!MerchantExtractor.candidates(lines: lost, headerLines: []).map(\.name).contains("CO. (M) SDN BHD"))

        let kept = ReceiptPage(OCRPage(text: "POPULAR BOOK\nCO. (M) SDN BHD\nNo 8, Jalan 7/118B\nTOTAL RM 5.75")).lines
        #expect(
            MerchantExtractor.candidates(lines: kept, headerLines: []).map(\.name).contains(
                "POPULAR BOOK CO. (M) SDN BHD"))
    }
}
