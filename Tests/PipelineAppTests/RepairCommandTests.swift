import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// `pipeline repair`, run as a process: stdout has the JSON, stderr what was dropped, exit 1 when nothing usable.
@Suite("pipeline repair")
struct RepairCommandTests {
    @Test func printsTheRepairedJSONAndReportsWhatWasDropped() throws {
        let folder = try TestEnvironment.makeTemporaryFolder("repair")
        defer { try? FileManager.default.removeItem(at: folder) }
        let reply = folder.appendingPathComponent("reply.txt")
        try
            #"Here you go: {"merchant": "Tesco", "amount": 76.07, "items": [{"name": "Tea", "totalPrice": 3.99}, {"name": "Cake", "totalPrice": 3.9"#
            .write(to: reply, atomically: true, encoding: .utf8)

        let output = try runPipeline(["repair", reply.path, "--truncated"])

        #expect(output.status == 0)
        let printed = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any]
        #expect(printed?["merchant"] as? String == "Tesco")
        #expect((printed?["items"] as? [Any])?.count == 1)
        #expect(output.standardError.contains("dropped items[1]"))
    }

    @Test func exitsOneWhenNothingUsableWasRecovered() throws {
        let folder = try TestEnvironment.makeTemporaryFolder("repair")
        defer { try? FileManager.default.removeItem(at: folder) }
        let reply = folder.appendingPathComponent("reply.txt")
        try "I'm sorry, I cannot read this receipt.".write(to: reply, atomically: true, encoding: .utf8)

        let output = try runPipeline(["repair", reply.path])

        #expect(output.status == 1)
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError.contains("nothing usable"))
    }

    @Test func refusesAmbiguousAmounts() throws {
        let folder = try TestEnvironment.makeTemporaryFolder("repair")
        defer { try? FileManager.default.removeItem(at: folder) }
        let reply = folder.appendingPathComponent("reply.txt")
        try #"{"merchant": "Aldi", "amount": "1,234"}"#.write(to: reply, atomically: true, encoding: .utf8)

        let output = try runPipeline(["repair", reply.path])

        #expect(output.status == 0)
        #expect(output.standardError.contains("refused amount"))
    }
}
