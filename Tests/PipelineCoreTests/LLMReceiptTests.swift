import Foundation
import JSONRepair
import PipelineCore
import Testing

@Suite("LLM receipt, guard and prompt")
struct LLMReceiptTests {
    static let reply = """
        {"date": "2024-03-15", "merchant": " Corner Café ", "currency": "usd",
         "items": [{"name": "Latte", "quantity": 2, "unitPrice": 4.50, "totalPrice": 9.00, "category": "Beverage"},
                   {"name": "Croissant", "quantity": 1, "unitPrice": "3.25", "totalPrice": 3.25}],
         "subtotal": 12.25, "discounts": 0, "fees": null, "tip": 2.00, "taxAmount": 1.10, "itemsTotal": 12.25,
         "amount": 15.35, "category": "Food & Dining", "paymentMethod": "Credit Card", "confidence": 0.93}
        """

    func receipt(_ text: String = reply) throws -> (LLMReceipt, [LLMFieldIssue]) {
        let (receipt, issues) = LLMReceiptReader.read(try #require(JSONRepairer.repair(text).value))
        return (try #require(receipt), issues)
    }

    @Test func readsEveryFieldWithDecimalMoney() throws {
        let (receipt, issues) = try receipt()
        #expect(issues.isEmpty)
        #expect(receipt.date == "2024-03-15")
        #expect(receipt.merchant == "Corner Café")
        #expect(receipt.currency == "USD")
        #expect(receipt.amount == Decimal(string: "15.35"))
        #expect(receipt.items.map(\.name) == ["Latte", "Croissant"])
        #expect(receipt.items[1].unitPrice == Decimal(string: "3.25"))
        #expect(receipt.items[0].quantity == 2)
        #expect(receipt.tip == 2)
        #expect(receipt.confidence == Decimal(string: "0.93"))
    }

    @Test func refusesWrongTypesAndForms() throws {
        let (receipt, issues) = try receipt(
            """
            {"date": "15/03/2024", "merchant": ["x"], "currency": "dollars", "amount": "12,50",
             "items": [{"quantity": 1, "totalPrice": 3}, {"name": "Tea", "totalPrice": "n/a"}]}
            """)
        #expect(Set(issues.map(\.path)) == ["date", "merchant", "currency", "amount", "items[0].name"])
        #expect(receipt.amount == nil)
        #expect(receipt.items.map(\.name) == ["Tea"])
        #expect(receipt.items[0].totalPrice == nil)
    }

    /// Issue 25: "2024-02-30" passed the reply check, was stored, failed the commit in PostgreSQL and made the job
    /// retry until dead. A date that does not exist is refused where the reply is read, with the day it lacks.
    @Test(arguments: ["2024-02-30", "2023-02-29", "2024-04-31", "0000-01-01"])
    func refusesADateThatDoesNotExist(date: String) throws {
        let (receipt, issues) = try receipt(#"{"date": "\#(date)", "amount": 5.00}"#)
        #expect(receipt.date == nil)
        #expect(issues.map(\.path) == ["date"], "\(issues)")
        #expect(issues.first?.field == .date)
    }

    @Test func acceptsTheLeapDay() throws {
        let (receipt, issues) = try receipt(#"{"date": "2024-02-29"}"#)
        #expect(issues.isEmpty)
        #expect(receipt.date == "2024-02-29")
    }

    @Test func theCurrencySettlesADecimalComma() throws {
        let (receipt, issues) = try receipt(#"{"currency": "BRL", "amount": "12,34"}"#)
        #expect(issues.isEmpty)
        #expect(receipt.amount == Decimal(string: "12.34"))
    }

    @Test func costComesFromTokensAndPrices() {
        let usage = TokenUsage(inputTokens: 1200, outputTokens: 180) + TokenUsage(inputTokens: 800, outputTokens: 20)
        #expect(usage == TokenUsage(inputTokens: 2000, outputTokens: 200))
        let cost = usage.cost(
            inputPricePerMillion: Decimal(string: "0.15")!, outputPricePerMillion: Decimal(string: "0.60")!)
        #expect(cost == Decimal(string: "0.00042"))
    }
}
