import Foundation
import PipelineCore
import Testing

/// What a person may do to line items, how it is recorded, and how the checks read the result.
@Suite struct ItemEditTests {
    private let items = [
        EditableItem.machine(
            position: 1, name: "Croissant", quantity: nil, unitPrice: nil, amount: Decimal(string: "3.50"),
            category: .food),
        EditableItem.machine(
            position: 2, name: "Coffee", quantity: 2, unitPrice: Decimal(string: "1.40"),
            amount: Decimal(string: "2.80"),
            category: .food),
        EditableItem.machine(
            position: 3, name: "Bag", quantity: nil, unitPrice: nil, amount: Decimal(string: "0.10"),
            category: .other),
    ]

    @Test func changesRemovalsAndAdditionsAreAppliedByTheShownPositionsAndRecorded() throws {
        let outcome = try ItemEdit.apply(
            [
                .change(position: 2, name: nil, quantity: nil, amount: Decimal(string: "2.75")),
                .remove(position: 1),
                .add(name: "Milk 2L", quantity: nil, amount: Decimal(string: "3.99")!),
            ], to: items, receiptID: 42)

        #expect(outcome.items.map(\.name) == ["Coffee", "Bag", "Milk 2L"])
        #expect(outcome.items[0].amount == Decimal(string: "2.75"))
        #expect(outcome.items[0].unitPrice == nil, "a changed amount drops the machine's unit price")
        #expect(outcome.items[0].quantity == 2)
        #expect(outcome.items[1] == items[2], "an untouched item stays as read")
        #expect(
            outcome.entries == [
                .init(machineValue: "#1 Croissant = 3.50", personValue: nil),
                .init(machineValue: "#2 Coffee × 2 = 2.80", personValue: "#1 Coffee × 2 = 2.75"),
                .init(machineValue: nil, personValue: "#3 Milk 2L = 3.99"),
            ])
    }

    @Test func anEditThatChangesNothingIsNotRecordedAndKeepsTheUnitPrice() throws {
        let outcome = try ItemEdit.apply(
            [.change(position: 2, name: "Coffee", quantity: .some(2), amount: Decimal(string: "2.8"))], to: items,
            receiptID: 42)

        #expect(outcome.entries.isEmpty)
        #expect(outcome.items == items)
    }

    @Test func aSecondEditKeepsTheMachinesReadingOfTheItem() throws {
        let first = try ItemEdit.apply(
            [.change(position: 3, name: "Paper bag", quantity: nil, amount: nil)], to: items, receiptID: 42)
        let second = try ItemEdit.apply(
            [.change(position: 3, name: nil, quantity: .some(nil), amount: Decimal(string: "0.20"))],
            to: first.items, receiptID: 42)

        #expect(second.entries == [.init(machineValue: "#3 Bag = 0.10", personValue: "#3 Paper bag = 0.20")])
    }

    @Test func positionsTheReceiptDoesNotHaveAreRefusedNamingTheReceipt() {
        #expect {
            try ItemEdit.apply([.remove(position: 4)], to: items, receiptID: 42)
        } throws: { error in
            (error as? ReviewError)?.message
                == "receipt 42 has no item 4 (it has items 1–3); see pipeline show 42"
        }
        #expect(throws: ReviewError.self) {
            try ItemEdit.apply(
                [.change(position: 1, name: "Bun", quantity: nil, amount: nil), .remove(position: 1)], to: items,
                receiptID: 42)
        }
    }

    @Test(arguments: [
        ("amount", "4,50", "receipt 42 item 3: amount must be an amount such as 12.34"),
        ("amount", "", "receipt 42 item 3: amount must be an amount"),
        ("quantity", "0", "receipt 42 item 3: quantity must be a number above 0"),
        ("quantity", "two", "receipt 42 item 3: quantity must be a number above 0"),
        ("name", "  ", "receipt 42 item 3: name must be 1 to 200 characters"),
    ])
    func badValuesNameTheReceiptTheItemAndTheValue(part: String, typed: String, message: String) {
        let input = ItemInput(receiptID: 42, position: 3)
        #expect {
            switch part {
            case "amount": _ = try input.amount(typed)
            case "quantity": _ = try input.quantity(typed)
            default: _ = try input.name(typed)
            }
        } throws: { error in
            let text = (error as? ReviewError)?.message ?? ""
            return text.hasPrefix(message) && text.hasSuffix("(got \"\(typed.trimmingCharacters(in: .whitespaces))\")")
        }
    }

    @Test func anAdditionIsTypedAsNameEqualsAmount() throws {
        let input = ItemInput(receiptID: 7, position: nil)

        #expect(
            try input.addition("Milk 2L=3.99") == .add(name: "Milk 2L", quantity: nil, amount: Decimal(string: "3.99")!)
        )
        #expect(try input.addition("A=B=-1") == .add(name: "A=B", quantity: nil, amount: -1))
        #expect(try input.quantity(" ") == nil, "an empty quantity is none")
        #expect(throws: ReviewError.self) { try input.addition("Milk 2L 3.99") }
        #expect(throws: ReviewError.self) { try input.addition("=3.99") }
    }

    @Test func theChecksReadTheCorrectedItemsThroughTheReconciler() {
        func detail(items amounts: [String], corrections: [Correction]) -> ReceiptDetail {
            let total = FieldReading(field: .total, value: "9.99", confidence: 0.9, evidenceLines: [3], correction: nil)
            return ReceiptDetail(
                receiptID: 1, fileName: "r.jpg", imageFormat: .jpeg, status: .needsReview,
                validationOutcome: .unbalanced, extractionSource: .rules, fields: [total], findings: [],
                reasons: [.unbalanced], dateIsAmbiguous: false, possibleDuplicateOf: nil,
                items: amounts.enumerated().map { index, amount in
                    ReviewItem(
                        position: index + 1, name: "Item \(index)", quantity: nil, unitPrice: nil, totalPrice: amount,
                        category: .other)
                }, ocrLines: [], layout: nil, corrections: corrections)
        }
        let edit = Correction(
            field: .item, machineValue: "#1 Item 0 = 4.00", personValue: "#1 Item 0 = 9.99",
            correctedBy: "alice", correctedAt: Date())
        let reconciler = Reconciler(tolerance: Decimal(string: "0.01")!)

        let before = detail(items: ["4.00"], corrections: [])
        let after = detail(items: ["9.99"], corrections: [edit])

        #expect(!before.hasCorrectedAmounts)
        #expect(after.hasCorrectedAmounts)
        #expect(
            before.recheck(with: reconciler).findings.map(\.message).contains(
                "line items sum to 4.00 but the printed total is 9.99 (off by 5.99, tolerance 0.01)"))
        let checks = after.recheck(with: reconciler)
        #expect(checks.outcome == .balanced)
        #expect(checks.findings.map(\.message) == ["line items sum to 9.99, matching the printed total 9.99"])
    }
}
