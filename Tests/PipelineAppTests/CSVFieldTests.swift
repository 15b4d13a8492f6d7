import Testing

@testable import PipelineApp

/// The one CSV quoting rule `report --csv` and `export --format csv` share.
@Suite struct CSVFieldTests {
    @Test(arguments: [
        ("Corner Bakery", "Corner Bakery"), ("12.30", "12.30"), ("", ""),
        ("Food & Dining, Groceries", "\"Food & Dining, Groceries\""),
        ("the \"Deli\"", "\"the \"\"Deli\"\"\""),
        ("line one\nline two", "\"line one\nline two\""),
        ("windows\r\nline", "\"windows\r\nline\""),
    ])
    func fieldsAreQuotedOnlyWhenTheyHoldACommaAQuoteOrALineBreak(value: String, field: String) {
        #expect(csvField(value) == field)
    }

    @Test func aMissingValueIsAnEmptyField() {
        #expect(csvField(nil) == "")
    }
}
