import Foundation
import PipelineApp
import PipelineCore
import TestSupport
import Testing

@Suite struct ConfigurationLoaderTests {
    private func load(_ yaml: String, environment: [String: String] = [:]) throws -> PipelineConfiguration {
        var configuration = PipelineConfiguration()
        try ConfigurationLoader.apply(yaml: yaml, fileName: "pipeline.yaml", to: &configuration)
        try ConfigurationLoader.applyEnvironment(environment, to: &configuration)
        return configuration
    }

    private func message(_ yaml: String, environment: [String: String] = [:]) -> String {
        do {
            _ = try load(yaml, environment: environment)
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    @Test func checkedInFileHoldsEveryKeyWithItsDefault() throws {
        let url = TestEnvironment.repositoryRoot.appendingPathComponent("pipeline.yaml")
        let text = try String(contentsOf: url, encoding: .utf8)
        #expect(try load(text) == PipelineConfiguration())
        for key in ConfigurationKey.all {
            let leaf = key.path.split(separator: ".").last!
            #expect(text.contains("  \(leaf):"), "pipeline.yaml lacks \(key.path)")
        }
    }

    @Test func readmeDocumentsEveryKeyAndItsVariable() throws {
        let readme = try String(
            contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        for key in ConfigurationKey.all {
            #expect(readme.contains("| `\(key.path)` |"), "README lacks \(key.path)")
            #expect(readme.contains("`\(key.environmentVariable)`"), "README lacks \(key.environmentVariable)")
        }
    }

    /// The trust budget is a number of receipts in 100, read as written and refused outside 0–100.
    @Test func trustBudgetIsReadAndRangeChecked() throws {
        #expect(try load("acceptance:\n  maxSilentPer100: 2.5\n").acceptance.maxSilentPer100 == 2.5)
        #expect(PipelineConfiguration().acceptance.maxSilentPer100 == 1)
        #expect(throws: (any Error).self) { try load("acceptance:\n  maxSilentPer100: 101\n") }
        #expect(throws: (any Error).self) { try load("acceptance:\n  maxSilentPer100: -1\n") }
    }

    @Test func heartbeatOfAThirdOfTheLeaseIsAccepted() throws {
        var configuration = try load("queue:\n  lease: 60s\n  heartbeat: 20s\n")
        try ConfigurationLoader.validate(configuration)
        configuration.queue.heartbeat = .milliseconds(20_001)
        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.validate(configuration) }
    }

    @Test func valuesAreParsedIntoTypes() throws {
        let configuration = try load(
            """
            queue:
              lease: 90s
              maxAttempts: 7
            ingest:
              maxBytes: 2MB
              formats: [jpeg, png]
            validation:
              tolerance: 0.05
            llm:
              provider: anthropic
            """)
        #expect(configuration.queue.lease == .seconds(90))
        #expect(configuration.queue.maxAttempts == 7)
        #expect(configuration.ingest.maxBytes == 2 * 1024 * 1024)
        #expect(configuration.ingest.formats == [.jpeg, .png])
        #expect(configuration.validation.tolerance == Decimal(string: "0.05")!)
        #expect(configuration.llm.provider == .anthropic)
    }

    @Test func badValueNamesFileLineColumnKeyValueAndForm() {
        let text = message("queue:\n  lease: thirty\n")
        #expect(text.hasPrefix("pipeline.yaml:2:10: error: 'queue.lease' must be a duration from 1s to 1d, such as"))
        #expect(text.contains("(got \"thirty\")"))
        #expect(text.contains("^"))
    }

    @Test func outOfRangeNumberSaysTheRange() {
        #expect(
            message("workers:\n  concurrency: 0\n").contains(
                "'workers.concurrency' must be a whole number from 1 to 64 (got \"0\")"))
    }

    @Test func unknownKeySuggestsTheNearestOne() {
        let text = message("queue:\n  leese: 30s\n")
        #expect(text.hasPrefix("pipeline.yaml:2:3: error: unknown key 'queue.leese'; did you mean 'queue.lease'?"))
    }

    @Test func unknownSectionIsNamed() {
        #expect(message("queues:\n  lease: 30s\n").contains("unknown key 'queues'"))
    }

    @Test func brokenYAMLSyntaxGivesLineAndColumn() {
        let text = message("queue:\n  lease: [30s\n")
        #expect(text.hasPrefix("pipeline.yaml:3:1: error: invalid YAML") || text.hasPrefix("pipeline.yaml:2:"))
        #expect(text.contains("invalid YAML"))
    }

    /// Issue 14 item 8: the refusal names the line but never prints the password.
    @Test(arguments: [
        "postgres://app:hunter2@db.example/receipts", "host=db.example user=app password=hunter2 dbname=receipts",
        "postgres://app@db.example/receipts?sslmode=require&password=hunter2",
    ])
    func passwordInTheFileIsRefusedWithoutEchoingIt(url: String) {
        let text = message("database:\n  url: \(url)\n")
        #expect(text.hasPrefix("pipeline.yaml:2:8: error: 'database.url' must not contain a password"), "\(text)")
        #expect(text.contains("PGPASSWORD"))
        #expect(text.contains("***"), "the line is shown, masked: \(text)")
        #expect(!text.contains("hunter2"), "\(text)")
    }

    @Test func brokenYAMLNearAPasswordDoesNotEchoIt() {
        let text = message("database:\n  url: postgres://app:hunter2@db.example/receipts\n  migrations: [x\n")
        #expect(text.contains("invalid YAML"))
        #expect(!text.contains("hunter2"), "\(text)")
    }

    @Test func environmentOverridesTheFile() throws {
        let configuration = try load(
            "workers:\n  concurrency: 2\n",
            environment: ["PIPELINE_WORKERS_CONCURRENCY": "6", "DATABASE_URL": "postgres://db/receipts"])
        #expect(configuration.workers.concurrency == 6)
        #expect(configuration.database.url == "postgres://db/receipts")
    }

    @Test func badEnvironmentValueNamesTheVariable() {
        let text = message("", environment: ["PIPELINE_QUEUE_MAX_ATTEMPTS": "many"])
        #expect(text.contains("PIPELINE_QUEUE_MAX_ATTEMPTS (for 'queue.maxAttempts') must be a whole number"))
    }

    @Test func missingConfigFileIsNamed() {
        #expect(throws: ConfigurationError.self) {
            _ = try ConfigurationLoader.load(path: "/nonexistent/pipeline.yaml", environment: [:])
        }
    }
}
