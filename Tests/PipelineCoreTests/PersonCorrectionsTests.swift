import Foundation
import PipelineCore
import Testing

/// A person's word outlives the machine's: each field's latest value, the decision, the edited items.
@Suite struct PersonCorrectionsTests {
    private func correction(_ field: CorrectionField, _ person: String?) -> Correction {
        Correction(
            field: field, machineValue: "machine", personValue: person, correctedBy: "ana",
            correctedAt: Date(timeIntervalSince1970: 0))
    }

    @Test func theLatestPersonValueOfEachFieldStandsOverTheMachinesAndAClearedFieldStaysCleared() {
        let person = PersonCorrections([
            correction(.field(.total), "9.99"), correction(.field(.total), "10.49"), correction(.field(.tip), nil),
        ])

        #expect(person.value(.total, machine: "12.00") == "10.49")
        #expect(person.value(.tip, machine: "1.00") == nil, "a person who cleared the tip keeps it cleared")
        #expect(person.value(.merchant, machine: "Café Rio") == "Café Rio")
        #expect(person.corrected(.tip) && !person.corrected(.merchant))
        #expect(!person.editedItems)
    }

    @Test func anAcceptOrRejectKeepsItsStatusAndLeavesNoReasonToWait() {
        let machine: [ReviewReason] = [.merchantNotSure]
        let undecided = PersonCorrections([correction(.field(.merchant), "Café Rio")])
        let accepted = PersonCorrections([correction(.status, "rejected"), correction(.status, "accepted")])

        #expect(undecided.status(machine: .needsReview) == .needsReview)
        #expect(undecided.reasons(machine: machine) == machine)
        #expect(accepted.status(machine: .needsReview) == .accepted)
        #expect(accepted.reasons(machine: machine).isEmpty)
        #expect(accepted.clearsReasons)
    }

    @Test func aDateAPersonSetNoLongerReadsBothWaysAndEditedItemsAreRemembered() {
        let person = PersonCorrections([correction(.field(.date), "2024-03-04"), correction(.item, "#1 Milk = 1.20")])

        #expect(!person.dateIsAmbiguous(machine: true))
        #expect(PersonCorrections([]).dateIsAmbiguous(machine: true))
        #expect(person.editedItems)
    }
}
