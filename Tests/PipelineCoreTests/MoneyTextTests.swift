import Foundation
import JSONRepair
import PipelineCore
import Testing

@Suite("Money as text")
struct MoneyTextTests {
    /// (text, notation, expected amount or nil when refused)
    @Test(arguments: [
        ("12.34", DecimalNotation.unknown, "12.34" as String?),
        ("$1,234.56", .unknown, "1234.56"),
        ("1.234,56 €", .unknown, "1234.56"),
        ("RM 7.90", .unknown, "7.90"),
        ("-3.50", .unknown, "-3.50"),
        ("(3.50)", .unknown, "-3.50"),
        ("1,234", .unknown, nil),
        ("12,34", .unknown, nil),
        ("1.234", .unknown, nil),
        ("1,234", .point, "1234"),
        ("12,34", .point, nil),
        ("12,34", .comma, "12.34"),
        ("1.234", .comma, "1234"),
        ("1,234.56", .comma, nil),
        ("1,234,567", .unknown, "1234567"),
        ("12.3.4", .unknown, nil),
        ("n/a", .unknown, nil),
        ("about 12", .unknown, nil),
    ])
    func readsOrRefuses(text: String, notation: DecimalNotation, expected: String?) {
        let result = MoneyText.amount(of: text, notation: notation)
        switch (result, expected) {
        case (.success(let value)?, let expected?): #expect(value == Decimal(string: expected))
        case (.failure?, nil), (nil, nil): break
        default:
            Issue.record(
                "'\(text)' with \(notation): got \(String(describing: result)), expected \(expected ?? "refusal")")
        }
    }

    @Test func neverGoesThroughDouble() throws {
        let result = MoneyText.amount(of: JSONValue.number("1297.98"), notation: .unknown)
        #expect(try result?.get() == Decimal(string: "1297.98"))
        let huge = MoneyText.amount(of: JSONValue.number("12345678901234567.89"), notation: .unknown)
        #expect(try huge?.get().description == "12345678901234567.89")
    }

    @Test func theCurrencyDecidesTheUsualNotation() {
        #expect(DecimalNotation.usual(for: "USD") == .point)
        #expect(DecimalNotation.usual(for: "brl") == .comma)
        #expect(DecimalNotation.usual(for: "EUR") == .unknown)
        #expect(DecimalNotation.usual(for: nil) == .unknown)
    }
}
