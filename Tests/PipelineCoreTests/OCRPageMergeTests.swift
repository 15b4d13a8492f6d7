import PipelineCore
import Testing

@Suite("OCR page merge")
struct OCRPageMergeTests {
    @Test("Tesseract lines holding a word PP-OCR did not read are added after PP-OCR's, boxes scaled to its page")
    func supplementsNewWords() {
        var primary = OCRPage(text: "CAFE NERO\nTOTAL GBP 6.40")
        primary.width = 400
        primary.height = 40
        var secondary = OCRPage(text: "Cafe Nero\n12 Mar 18\nTotal: GBP6.40\n- -")
        secondary.width = 800
        secondary.height = 80
        let merged = OCRPageMerge.supplement(primary, with: secondary)
        // "12 Mar 18" is new; "Cafe Nero" and "Total:" are known words; "- -" holds no telling token.
        #expect(merged.lines.map(\.text) == ["CAFE NERO", "TOTAL GBP 6.40", "12 Mar 18"])
        #expect(merged.lines[2].box.top == secondary.lines[1].box.top / 2)
        #expect(merged.width == 400 && merged.height == 40)
    }

    @Test("A page with nothing new is returned unchanged")
    func nothingNew() {
        let primary = OCRPage(text: "TOTAL 8.20")
        #expect(OCRPageMerge.supplement(primary, with: OCRPage(text: "Total $8.20")) == primary)
    }
}
