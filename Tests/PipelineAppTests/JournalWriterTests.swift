import Foundation
import PipelineApp
import PipelineCore
import Testing

@Suite struct JournalWriterTests {
    private func expense(
        id: Int64 = 7, merchant: String? = "Corner Shop", date: String? = "2024-05-03", currency: String? = "EUR",
        total: Decimal? = Decimal(string: "5.50"), payment: PaymentMethod? = .card,
        items: [JournalItem] = []
    ) -> JournalExpense {
        JournalExpense(
            receiptID: id, file: "inbox/shop.jpg", merchant: merchant, date: date, currency: currency, total: total,
            category: .groceries, paymentMethod: payment, items: items)
    }

    @Test func itemPostingsSplitByItemCategoryAndTheRestGoesToTheReceiptsCategory() {
        var accounts = PipelineConfiguration.Accounts()
        accounts.itemPostings = true
        let items = [
            JournalItem(category: .food, amount: 2), JournalItem(category: .beverage, amount: 1.5),
            JournalItem(category: .food, amount: 1),
        ]
        let (entries, skipped) = JournalWriter(accounts: accounts).entries([expense(items: items)])
        #expect(skipped.isEmpty)
        let postings = entries.first?.postings.map { "\($0.account) \($0.amount)" }
        #expect(
            postings == [
                "Expenses:Food 3", "Expenses:Food:Beverages 1.5", "Expenses:Food:Groceries 1", "Liabilities:Card -5.5",
            ])
    }

    @Test func oneReceiptPostingByDefaultAndAnUnknownPaymentBalancesAgainstItsOwnAccount() {
        let (entries, _) = JournalWriter(accounts: PipelineConfiguration.Accounts()).entries([
            expense(payment: nil, items: [JournalItem(category: .food, amount: 2)])
        ])
        #expect(entries.first?.postings.map(\.account) == ["Expenses:Food:Groceries", "Assets:Unknown"])
    }

    @Test func expensesThatCannotBePostedAreNamedWithTheFix() {
        let writer = JournalWriter(accounts: PipelineConfiguration.Accounts())
        let (entries, skipped) = writer.entries([
            expense(id: 1, date: nil), expense(id: 2, total: nil), expense(id: 3, currency: "RM"), expense(id: 4),
        ])
        #expect(entries.map(\.expense.receiptID) == [4])
        #expect(skipped.map(\.receiptID) == [1, 2, 3])
        #expect(skipped[2].description.contains("receipt 3 (inbox/shop.jpg)"))
        #expect(skipped[2].description.contains("pipeline correct 3 --currency"))
    }

    @Test func payeesCannotBreakOutOfTheirField() {
        let writer = JournalWriter(accounts: PipelineConfiguration.Accounts())
        let hostile = expense(merchant: "Joe \"Deli\"; tab | 2\nnext")
        let ledger = writer.write([hostile], as: .ledger).text
        #expect(ledger.contains("\n2024-05-03 Joe \"Deli\", tab / 2 next\n"))
        let beancount = writer.write([hostile], as: .beancount).text
        #expect(beancount.contains("\n2024-05-03 * \"Joe \\\"Deli\\\"; tab | 2 next\" \"\"\n"))
    }
}
