import PipelineCore
import Testing

@Suite("Second OCR pass policy")
struct SecondPassPolicyTests {
    @Test(
        "A second pass runs when the first text shows no date or no total line",
        arguments: [
            ("SHOP\nDate: 11/01/2019\nTOTAL RM 327.00", false),
            ("SHOP\n05 MAR 2018 10:12\nAmount due 12,50", false),
            ("SHOP\nJan 5, 2019\nBalance 3.05", false),
            ("SHOP\nTOTAL RM 327.00", true),
            ("SHOP\nDate: 11/01/2019\nCash 327.00", true),
            ("SHOP\n2019-01-11\nTOTAL", true),
            ("", true),
        ])
    func decides(_ text: String, _ expected: Bool) {
        #expect(SecondPassPolicy.needsSecondPass(text) == expected)
    }
}
