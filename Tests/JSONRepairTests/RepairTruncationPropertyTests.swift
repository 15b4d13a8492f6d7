import Foundation
import JSONRepair
import Testing

/// Cuts every receipt document at every offset and repairs the prefix: no value may differ from the original
/// (a missing value is allowed, a wrong one is not), and nearly every complete field must be recovered.
@Suite("JSON repair: truncation at every offset")
struct RepairTruncationPropertyTests {
    @Test func neverReturnsAWrongValueAndRecoversCompleteFields() throws {
        let documents = try RepairFixtures.receiptDocuments()
        try #require(documents.count >= 20)
        for document in documents {
            let value = try #require(JSONRepairer.repair(document.text).value, "\(document.name)")
            let foundation = try JSONSerialization.jsonObject(with: Data(document.text.utf8))
            #expect(matchesFoundation(value, foundation), "\(document.name) parses as Foundation reads it")
        }
        let outcome = try cutEverywhere(documents)
        print("truncation property: \(documents.count) documents, \(outcome)")
        #expect(outcome.wrongValues.isEmpty, "\(outcome.wrongValues.prefix(10))")
        #expect(outcome.share >= 0.99)
    }

    /// The same with the JSON inside prose and a code fence, as chatty models reply (the fence is never closed
    /// when the reply is cut).
    @Test func fencedRepliesCutAnywhereNeverGiveAWrongValue() throws {
        let documents = try RepairFixtures.receiptDocuments().prefix(5).map { document in
            (name: document.name, text: "Here is the receipt {as JSON}:\n```json\n" + document.text + "```\nDone.")
        }
        let outcome = try cutEverywhere(documents)
        print("truncation property, fenced: \(documents.count) documents, \(outcome)")
        #expect(outcome.wrongValues.isEmpty, "\(outcome.wrongValues.prefix(10))")
        #expect(outcome.share >= 0.99)
    }

    /// What cutting documents at every offset gave.
    struct Outcome: CustomStringConvertible {
        var cuts = 0
        var wrongValues: [String] = []
        var completeFields = 0
        var recoveredFields = 0
        var share: Double { Double(recoveredFields) / Double(max(completeFields, 1)) }
        var description: String {
            "\(cuts) cuts, wrong values \(wrongValues.count), complete fields recovered "
                + "\(recoveredFields)/\(completeFields) (\(String(format: "%.2f", share * 100))%)"
        }
    }

    private func cutEverywhere(_ documents: [(name: String, text: String)]) throws -> Outcome {
        var outcome = Outcome()
        for document in documents {
            let original = JSONRepairer.repair(document.text)
            let truth = leaves(of: try #require(original.value, "\(document.name)"))
            let scalars = Array(document.text.unicodeScalars)
            for offset in 0..<scalars.count {
                outcome.cuts += 1
                let prefix = String(String.UnicodeScalarView(scalars[0..<offset]))
                let repaired = leaves(of: JSONRepairer.repair(prefix, providerReportedTruncation: true).value ?? .null)
                for (path, value) in repaired where path != "" && truth[path] != value {
                    outcome.wrongValues.append("\(document.name) cut at \(offset): \(path) = \(value)")
                }
                let complete = truth.keys.filter { isComplete($0, at: offset, ends: original.valueEnds, truth: truth) }
                outcome.completeFields += complete.count
                outcome.recoveredFields += complete.filter { repaired[$0] == truth[$0] }.count
            }
        }
        return outcome
    }

    /// A field is complete in a prefix of `offset` scalars when its value ended before the cut (numbers and
    /// literals need one more character to show they ended) and every line item holding it closed.
    private func isComplete(_ path: String, at offset: Int, ends: [String: Int], truth: [String: LeafValue]) -> Bool {
        guard let end = ends[path] else { return false }
        let needsTerminator: Bool
        switch truth[path] {
        case .string?: needsTerminator = false
        default: needsTerminator = true
        }
        guard needsTerminator ? end < offset : end <= offset else { return false }
        var container = path
        while let bracket = container.range(of: "]", options: .backwards) {
            container = String(container[..<bracket.upperBound])
            guard let itemEnd = ends[container], itemEnd <= offset else { return false }
            container = String(container[..<container.index(before: bracket.upperBound)])
        }
        return true
    }
}
