import Foundation
import PipelineCore
import Testing

/// What a person may type for each field, and how rules are checked before they are stored.
@Suite struct ReviewValueTests {
    @Test(arguments: [
        (CorrectableField.total, "12.34", "12.34"), (.total, " 7 ", "7"), (.tax, "-0.50", "-0.5"),
        (.total, "1.005", "1.005"),
        (.date, "2024-02-29", "2024-02-29"), (.currency, "usd", "USD"), (.category, "groceries", "Groceries"),
        (.paymentMethod, "Card", "card"), (.merchant, "  Corner Bakery ", "Corner Bakery"),
    ])
    func acceptedValuesAreNormalized(field: CorrectableField, typed: String, stored: String) throws {
        #expect(try FieldValue.normalize(typed, for: field) == stored)
    }

    @Test(arguments: [
        (CorrectableField.total, "12,34", "an amount such as 12.34"), (.total, "1.2.3", "an amount"),
        (.total, "1e5", "an amount"), (.total, "12.3456", "an amount"), (.date, "2023-02-29", "a date such as"),
        (.date, "31/01/2024", "a date such as"), (.currency, "dollars", "three-letter"),
        (.category, "Snacks", "Food & Dining"), (.category, "", "Groceries"), (.paymentMethod, "cheque", "voucher"),
    ])
    func refusedValuesNameTheFieldTheValueAndTheForm(field: CorrectableField, typed: String, form: String) {
        #expect {
            try FieldValue.normalize(typed, for: field)
        } throws: { error in
            let message = (error as? ReviewError)?.message ?? ""
            return message.hasPrefix("\(field.label) must be") && message.contains(form)
                && message.contains("(got \"\(typed.trimmingCharacters(in: .whitespaces))\")")
        }
    }

    @Test func anEmptyValueClearsAnOptionalField() throws {
        #expect(try FieldValue.normalize("  ", for: .tip) == nil)
    }

    @Test func aRuleWithAnUnknownCategoryIsRefusedWithTheKnownOnes() throws {
        let expense = #expect(throws: ReviewError.self) {
            try CategoryRule(target: .merchant, pattern: "deli", categoryNamed: "Snacks")
        }
        let item = #expect(throws: ReviewError.self) {
            try CategoryRule(target: .item, pattern: "soap", categoryNamed: "Groceries")
        }

        #expect(expense?.message.hasPrefix("unknown expense category \"Snacks\"; known expense categories: ") == true)
        #expect(item?.message.contains("unknown item category \"Groceries\"") == true)
        #expect(
            try CategoryRule(target: .item, pattern: " soap ", categoryNamed: "personal care").validated()
                == CategoryRule(.item(.personalCare), pattern: "soap"))
    }

    @Test func recategorizationReportsOnlyExpensesWhoseCategoriesChange() {
        let samples = [
            CategorizationSample(
                receiptID: 1, merchant: "Corner Bakery", ocrText: "CORNER BAKERY", itemNames: [],
                category: .other, itemCategories: []),
            // Filed as the categorizer files a fuel station: recategorizing changes nothing for it.
            CategorizationSample(
                receiptID: 2, merchant: "Shell", ocrText: "SHELL", itemNames: [],
                category: .transportation, itemCategories: []),
        ]
        let rule = CategoryRule(.merchant(.foodAndDining), pattern: "bakery")

        let changes = Recategorization(rules: [rule]).changes(for: samples)

        #expect(changes == [CategoryChange(receiptID: 1, category: .foodAndDining, itemCategories: [])])
        #expect(Recategorization(rules: [rule]).matches(of: rule, in: samples).map(\.receiptID) == [1])
    }
}
