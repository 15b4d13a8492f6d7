import Foundation
import JSONRepair
import Testing

/// The input → expected pairs of two widely used repair libraries (see `Fixtures/json-repair/PEER-VECTORS.md`).
///
/// Every case passes or is listed in `deliberate-differences.json` with the reason this project differs
/// (mostly: it drops an unfinished value where the peer completes it). A listed case that passes is stale and
/// fails the test too, so the list stays exact.
@Suite("JSON repair: peer test vectors")
struct RepairPeerVectorTests {
    @Test func everyCasePassesOrIsADocumentedDifference() throws {
        let differences =
            try JSONSerialization.jsonObject(
                with: Data(RepairFixtures.text("deliberate-differences.json").utf8)) as? [String: String] ?? [:]
        var passed = 0
        var deliberate = 0
        var failures: [String] = []
        var stale: [String] = []
        for file in ["json_repair_cases.json", "jsonrepair_js_cases.json"] {
            let cases = try #require(
                try JSONSerialization.jsonObject(with: Data(RepairFixtures.text(file).utf8)) as? [[String: Any]])
            for (index, peerCase) in cases.enumerated() {
                let id = "\(file)#\(index)"
                let agrees = try agreesWithPeer(peerCase)
                switch (agrees, differences[id]) {
                case (true, nil): passed += 1
                case (true, _?): stale.append(id)
                case (false, _?): deliberate += 1
                case (false, nil): failures.append(describe(id, peerCase))
                }
            }
        }
        print(
            "peer vectors: \(passed) pass, \(deliberate) deliberate differences, \(failures.count) fail, \(stale.count) stale"
        )
        for failure in failures { print(failure) }
        #expect(failures.count == 0, "unexplained differences (printed above, one per line)")
        #expect(stale.isEmpty, "listed as different but now passing: \(stale)")
    }

    /// Whether our repair gives the peer's expected value (compared as values, not text).
    private func agreesWithPeer(_ peerCase: [String: Any]) throws -> Bool {
        let input = peerCase["input"] as? String ?? ""
        let ours = JSONRepairer.repair(input).value
        switch peerCase["expects"] as? String {
        case "error":
            return ours == nil
        case "value":
            return matches(ours, peerCase["expected"] as Any)
        default:
            let text = peerCase["expected"] as? String ?? ""
            guard !text.isEmpty else { return ours == nil }
            guard let expected = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)
            else { return false }
            return matches(ours, expected)
        }
    }

    /// The peers print nothing (`""`) when they find no JSON; we return nil.
    private func matches(_ ours: JSONValue?, _ expected: Any) -> Bool {
        guard let ours else { return (expected as? String) == "" || expected is NSNull }
        return matchesFoundation(ours, expected)
    }

    private func describe(_ id: String, _ peerCase: [String: Any]) -> String {
        let input = peerCase["input"] as? String ?? ""
        let expected =
            (try? JSONSerialization.data(withJSONObject: peerCase["expected"] ?? NSNull(), options: .fragmentsAllowed))
            .map { String(decoding: $0, as: UTF8.self) } ?? "?"
        let ours = JSONRepairer.repair(input).value?.jsonText() ?? "nil"
        let options =
            (try? JSONSerialization.data(withJSONObject: peerCase["options"] ?? [:], options: .sortedKeys))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        let record: JSONValue = .object([
            JSONMember("id", .string(id)), JSONMember("expects", .string(peerCase["expects"] as? String ?? "")),
            JSONMember("options", .string(options)), JSONMember("input", .string(input)),
            JSONMember("expected", .string(expected)), JSONMember("ours", .string(ours)),
        ])
        return "unexplained peer difference: " + record.jsonText()
    }
}
