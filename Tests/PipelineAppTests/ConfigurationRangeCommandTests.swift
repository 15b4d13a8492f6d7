import DatabaseTestSupport
import Foundation
import PipelineApp
import PostgresStore
import TestSupport
import Testing

/// The configuration values that crashed `pipeline` (SIGILL) or reached libpq (issue 26), through the commands that
/// use them: each now stops the command at load with exit 2, naming the key, the value and the range.
@Suite struct ConfigurationRangeCommandTests {
    /// One value set in YAML or in the environment, and the command that uses it.
    struct Case: Sendable, CustomStringConvertible {
        let key: String
        let value: String
        let inEnvironment: Bool
        let command: String
        var description: String { "\(key)=\(value) (\(inEnvironment ? "environment" : "YAML"), \(command))" }
    }

    static let cases = [
        Case(key: "queue.lease", value: "1e16s", inEnvironment: true, command: "work"),
        Case(key: "queue.lease", value: "99999999999d", inEnvironment: true, command: "work"),
        Case(key: "queue.retention", value: "99999999999d", inEnvironment: true, command: "work"),
        Case(key: "queue.retention", value: "1e300d", inEnvironment: false, command: "work"),
        Case(key: "workers.shutdownGrace", value: "1e300s", inEnvironment: false, command: "work"),
        Case(key: "database.connectTimeout", value: "99999999999d", inEnvironment: false, command: "work"),
        Case(key: "ingest.settleTime", value: "99999999999d", inEnvironment: true, command: "ingest"),
        Case(key: "ingest.maxBytes", value: "99999999999GB", inEnvironment: false, command: "ingest"),
    ]

    @Test(arguments: cases)
    func aValueNoCodeCanHonourExitsTwoNamingKeyValueAndRange(_ sample: Case) async throws {
        let folder = try TestEnvironment.makeTemporaryFolder("config-range")
        defer { try? FileManager.default.removeItem(at: folder) }
        let inbox = folder.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestEnvironment.receipt("sroie_006.jpg"), to: inbox.appendingPathComponent("sroie_006.jpg"))
        try await TestDatabase.withMigratedDatabase { _, url in
            var environment = CommandLineTests.environment(database: url)
            // A queued job, so `work` reaches its first claim and its cleanup.
            let ingest = try runPipeline(["ingest", inbox.path], environment: environment)
            #expect(ingest.status == 0, "\(ingest.standardError)")
            try FileManager.default.copyItem(
                at: TestEnvironment.receipt("sroie_030.jpg"), to: inbox.appendingPathComponent("sroie_030.jpg"))

            var arguments = [sample.command] + (sample.command == "work" ? ["--drain"] : [inbox.path])
            if sample.inEnvironment {
                environment[try #require(ConfigurationKey.named(sample.key)).environmentVariable] = sample.value
            } else {
                environment["PIPELINE_INGEST_SETTLE_TIME"] = nil
                let configuration = folder.appendingPathComponent("pipeline.yaml")
                var values = ["ingest.settleTime": "0s"]
                values[sample.key] = sample.value
                try Self.yaml(values).write(to: configuration, atomically: true, encoding: .utf8)
                arguments += ["--config", configuration.path]
            }
            let result = try runPipeline(arguments, environment: environment, in: folder)

            #expect(result.status == 2, "exit \(result.status): \(result.standardError)")
            #expect(result.standardError.contains("'\(sample.key)'"), "\(result.standardError)")
            #expect(result.standardError.contains("\"\(sample.value)\""), "\(result.standardError)")
            #expect(result.standardError.contains(/from \S+ to \S+/), "\(result.standardError)")
        }
    }

    /// A `pipeline.yaml` setting dotted keys (`queue.lease`) to values, one section per first part.
    static func yaml(_ values: [String: String]) -> String {
        let sections = Dictionary(grouping: values, by: { String($0.key.prefix { $0 != "." }) })
        return sections.keys.sorted().map { section in
            "\(section):\n"
                + sections[section, default: []].sorted { $0.key < $1.key }.map { key, value in
                    "  \(key.dropFirst(section.count + 1)): \(value)\n"
                }.joined()
        }.joined()
    }
}
