import Foundation
import PipelineCore
import Testing

@Suite struct AmountParserTests {
    @Test(arguments: [
        ("12.50", "12.50", true), ("12,50", "12.50", true), ("1,234.56", "1234.56", true),
        ("1.234,56", "1234.56", true),
        ("RM12.50", "12.50", true), ("$4.99", "4.99", true), ("€24,50", "24.50", true), ("12.50-", "-12.50", true),
        ("(1.00)", "-1.00", true), ("-3.00", "-3.00", true), ("1O.5O", "10.50", true), ("S.00", "5.00", true),
        ("l2.00", "12.00", true), ("76..77", "76.77", true), ("124,00.", "124.00", true), ("250", "250", false),
        ("1 234.50", "1234.50", true), ("48000.00", "48000.00", true), ("PM7.00", "7.00", true),
        ("S7.10", "7.10", true), ("B200.00", "200.00", true), ("฿200.00", "200.00", true), ("R288.40", "288.40", true),
        ("S10", "510", false),
    ])
    func parsesAmounts(text: String, expected: String, hasDecimals: Bool) throws {
        let amount = try #require(AmountParser.parse(text))

        #expect(amount.value == money(expected))
        #expect(amount.hasDecimals == hasDecimals)
    }

    @Test(arguments: ["TOTAL", "11/01/2019", "09:44:00", "6%", "SOS", "", "1.2.3.4", "12.5.6", "9:49PM", "PM"])
    func rejectsNonAmounts(text: String) {
        #expect(AmountParser.parse(text) == nil)
    }

    /// A whole number in thousands groups carries its group mark, for a page that prints its money in whole units;
    /// a number with decimals, a bare integer or a leading zero group (`0.273` kg) does not.
    @Test(
        arguments: [
            ("29,000", ","), ("1.250.000", "."), ("25 000", " "), ("Rp25.000", "."), ("0.273", nil), ("12.50", nil),
            ("1,234.56", nil), ("250", nil),
        ] as [(String, Character?)])
    func wholeNumbersInThousandsGroupsCarryTheirMark(text: String, mark: Character?) throws {
        let amount = try #require(AmountParser.parse(text))

        #expect(amount.wholeGroupMark == mark)
    }

    @Test func commaGroupsAreAmbiguousAndReadAsThousands() throws {
        let amount = try #require(AmountParser.parse("1,234"))

        #expect(amount.value == 1234)
        #expect(amount.isAmbiguous)
        #expect(!amount.hasDecimals)
    }

    @Test func lookalikeLettersAreReported() throws {
        #expect(try #require(AmountParser.parse("1O.50")).isOCRCorrected)
        #expect(try !#require(AmountParser.parse("10.50")).isOCRCorrected)
    }
}
