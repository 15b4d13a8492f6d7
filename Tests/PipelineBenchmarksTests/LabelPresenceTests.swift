import Foundation
import PipelineCore
import ReceiptBench
import Testing

@Suite("Label presence in OCR text")
struct LabelPresenceTests {
    @Test(
        "Amounts match with or without thousands separators, never inside a longer number",
        arguments: [
            ("TOTAL RM 1,007.50", "1007.50", true),
            ("Total 1007.50", "1007.50", true),
            ("Summe 1.007,50 EUR", "1007.50", true),
            ("Total 24,50", "24.50", true),
            ("TOTAL 68,000", "68000.00", true),
            ("TOTAL 1327.00", "327.00", false),
            ("TOTAL 327.001", "327.00", false),
            ("TOTAL 32.70", "327.00", false),
        ])
    func amounts(_ text: String, _ amount: String, _ expected: Bool) throws {
        let value = try #require(Decimal(string: amount))
        #expect(LabelPresence.containsAmount(value, in: text) == expected)
    }

    @Test(
        "Dates match in their common printed forms",
        arguments: [
            ("Date: 11/01/2019 10:17", true),
            ("DATE : 01-11-19", true),
            ("11.1.2019", true),
            ("2019-01-11", true),
            ("11 JAN 2019", true),
            ("11-Jan-2019", true),
            ("Jan 11, 2019", true),
            ("111/01/2019", false),
            ("12/01/2019", false),
        ])
    func dates(_ text: String, _ expected: Bool) {
        #expect(LabelPresence.containsDate(year: 2019, month: 1, day: 11, in: text) == expected)
    }

    @Test("Merchants match ignoring case, spaces and punctuation, across line breaks, with a few misread letters")
    func merchants() {
        #expect(LabelPresence.containsMerchant("CHOEUN KOREANRESTAURANT", in: "Choeun Korean\nRestaurant"))
        #expect(LabelPresence.containsMerchant("SOON HUAT MACHINERY", in: "Tel: 123\nSOON HUAT MACHINERY ENTERPRISE"))
        #expect(LabelPresence.containsMerchant("UNIHAKKA INTERNATIONAL SDN BHD", in: "UNIHAKKA INTERNATIONAL SON BHD"))
        #expect(!LabelPresence.containsMerchant("SOON HUAT MACHINERY", in: "SOON HUAT ENTERPRISE"))
        #expect(!LabelPresence.containsMerchant("UNIHAKKA INTERNATIONAL", in: "UNIHAKKA", minimumSimilarity: 0.8))
        #expect(!LabelPresence.containsMerchant("", in: "anything"))
    }

    @Test("Approximate substring distance counts the edits of the best window")
    func editDistance() {
        func distance(_ needle: String, _ haystack: String) -> Int {
            LabelPresence.smallestEditDistance(of: Array(needle.unicodeScalars), inside: Array(haystack.unicodeScalars))
        }
        #expect(distance("abc", "xxabcxx") == 0)
        #expect(distance("abc", "xxabxx") == 1)
        #expect(distance("abcd", "xxaXcdxx") == 1)
        #expect(distance("abc", "") == 3)
    }
}
