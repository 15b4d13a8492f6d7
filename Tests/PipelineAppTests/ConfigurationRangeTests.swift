import DatabaseTestSupport
import Foundation
import PipelineApp
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// Every number, size and duration key with the values of issue 26 — `0`, `-1`, its floor and ceiling, one past each,
/// `1e300`, `nan`, `inf` and a 30-digit number — in YAML and in the environment: each is taken or refused with the
/// key, the value and the range, never a trap.
///
/// The loader sees every value of every key (fast, in process). The built `pipeline` runs a representative subset:
/// every key at its floor and at its ceiling at once, through the commands that use them (ingest, work, stats), and
/// every key with a value past its ceiling, which must stop the command at load with exit 2.
@Suite struct ConfigurationRangeTests {
    /// A value tried on a key, and whether the key must take it.
    struct Sample: CustomStringConvertible {
        let text: String
        let taken: Bool
        var description: String { "\(text) (\(taken ? "taken" : "refused"))" }
    }

    static let boundedKeys = ConfigurationKey.all.filter { $0.bounds != nil }

    /// The values of issue 26 for a key with these bounds; "one past" is one step of the key's own unit.
    static func samples(_ bounds: ConfigurationBounds) -> [Sample] {
        let written = bounds.written
        let (below, above, zeroIsTaken): (String, String, Bool)
        switch bounds {
        case .wholeNumber(let range):
            (below, above, zeroIsTaken) = ("\(range.lowerBound - 1)", "\(range.upperBound + 1)", range.contains(0))
        case .decimal(let range):
            let step = Decimal(string: "0.01")!
            (below, above, zeroIsTaken) = (
                "\(range.lowerBound - step)", "\(range.upperBound + step)", range.contains(0)
            )
        case .share(let range):
            (below, above, zeroIsTaken) = (
                "\(range.lowerBound - 0.01)", "\(range.upperBound + 0.01)", range.contains(0)
            )
        case .duration(let range):
            (below, above, zeroIsTaken) = (
                "\(range.lowerBound.milliseconds - 1)ms", "\(range.upperBound.milliseconds + 1)ms",
                range.contains(.zero)
            )
        case .byteSize(let range):
            (below, above, zeroIsTaken) = ("\(range.lowerBound - 1)", "\(range.upperBound + 1)", range.contains(0))
        }
        return [
            Sample(text: written.floor, taken: true), Sample(text: written.ceiling, taken: true),
            Sample(text: below, taken: false), Sample(text: above, taken: false),
            Sample(text: "0", taken: zeroIsTaken), Sample(text: "-1", taken: false),
            Sample(text: "1e300", taken: false), Sample(text: "nan", taken: false), Sample(text: "inf", taken: false),
            Sample(text: "123456789012345678901234567890", taken: false),
        ]
    }

    @Test func everyNumberSizeAndDurationKeyHasBoundsHoldingItsDefault() throws {
        let names = Set(Self.boundedKeys.map(\.path))
        for key in ConfigurationKey.all
        where key.form.contains("number") || key.form.contains("duration")
            || key.form.contains("size") || key.form.contains("share")
        {
            #expect(names.contains(key.path), "\(key.path) has no bounds")
        }
        // The checked-in file holds every default: each lies within its key's bounds.
        let text = try String(
            contentsOf: TestEnvironment.repositoryRoot.appendingPathComponent("pipeline.yaml"), encoding: .utf8)
        var configuration = PipelineConfiguration()
        try ConfigurationLoader.apply(yaml: text, fileName: "pipeline.yaml", to: &configuration)
        #expect(configuration == PipelineConfiguration())
    }

    @Test(arguments: boundedKeys.map(\.path))
    func theLoaderTakesOrRefusesEveryValueNamingKeyValueAndRange(_ path: String) throws {
        let key = try #require(ConfigurationKey.named(path))
        let bounds = try #require(key.bounds)
        for sample in Self.samples(bounds) {
            for source in ["YAML", "environment"] {
                var configuration = PipelineConfiguration()
                let outcome: String?
                do {
                    if source == "YAML" {
                        try ConfigurationLoader.apply(
                            yaml: ConfigurationRangeCommandTests.yaml([path: sample.text]), fileName: "pipeline.yaml",
                            to: &configuration)
                    } else {
                        try ConfigurationLoader.applyEnvironment(
                            [key.environmentVariable: sample.text], to: &configuration)
                    }
                    outcome = nil
                } catch let error as ConfigurationError {
                    outcome = error.description
                }
                #expect((outcome == nil) == sample.taken, "\(path) = \(sample) in \(source): \(outcome ?? "taken")")
                if let outcome {
                    for part in ["'\(path)'", "\"\(sample.text)\"", "from \(bounds.written.floor) to"] {
                        #expect(outcome.contains(part), "\(path) = \(sample.text) in \(source): \(outcome)")
                    }
                    #expect(outcome.contains("to \(bounds.written.ceiling)"), "\(outcome)")
                }
            }
        }
    }

    /// Every key at its floor (then at its ceiling) at once, through ingest, work and stats: each command works —
    /// exit 0, or 1 when a file or receipt is refused under such settings (1 byte, 10000 pixels a side) — and never
    /// traps, hangs or calls the database down.
    /// (Floors from a file, ceilings from the environment: each source once, for time.)
    @Test(arguments: [("floor", false), ("ceiling", true)])
    func everyKeyAtItsFloorOrCeilingRunsTheCommandsThatUseIt(_ end: String, inEnvironment: Bool) async throws {
        var values: [String: String] = [:]
        for key in Self.boundedKeys {
            let written = try #require(key.bounds).written
            values[key.path] = end == "floor" ? written.floor : written.ceiling
        }
        let folder = try TestEnvironment.makeTemporaryFolder("config-\(end)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let inbox = folder.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        let receipt = inbox.appendingPathComponent("sroie_006.jpg")
        try FileManager.default.copyItem(at: TestEnvironment.receipt("sroie_006.jpg"), to: receipt)
        // Older than the longest settle time, so ingest takes it at once at either end.
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-2 * 3600)], ofItemAtPath: receipt.path)
        try await TestDatabase.withMigratedDatabase { connection, url in
            var environment = CommandLineTests.cleanEnvironment
            environment["DATABASE_URL"] = url
            environment["PIPELINE_DATABASE_MIGRATIONS"] = TestDatabase.migrations.path
            // Queued with the defaults first, so `work` has a job even when a floor (ingest.maxBytes) rejects the file.
            var defaults = environment
            defaults["PIPELINE_INGEST_SETTLE_TIME"] = "0s"
            let queued = try runPipeline(["ingest", inbox.path], environment: defaults, in: folder)
            #expect(queued.status == 0, "\(queued.standardError)")
            var configuration: [String] = []
            if inEnvironment {
                for key in Self.boundedKeys { environment[key.environmentVariable] = values[key.path] }
            } else {
                let file = folder.appendingPathComponent("pipeline.yaml")
                try ConfigurationRangeCommandTests.yaml(values).write(to: file, atomically: true, encoding: .utf8)
                configuration = ["--config", file.path]
            }
            for command in [["ingest", inbox.path], ["work", "--drain"], ["stats"]] {
                // `timeout`: a wait of a ceiling's length (an hour) would be a failure too, not a hung suite; 5 minutes
                // leave room for a slow shared machine (64 PP-OCR threads at the ceiling).
                let result = try ChildProcess.run(
                    "/usr/bin/timeout", ["300", TestEnvironment.pipelineBinary.path] + command + configuration,
                    environment: environment, directory: folder.path)
                #expect(
                    [0, 1].contains(result.status),
                    "\(command) at every \(end): exit \(result.status)\n\(result.standardError)")
            }
            let jobs = try await connection.query("SELECT state FROM jobs").map { try $0.string("state") }
            #expect(jobs == ["done"] || jobs == ["dead"], "the receipt's job ran to its end: \(jobs)")
        }
    }

    /// A value past the ceiling of each key stops the command using it at load, with exit 2.
    @Test(arguments: [false, true])
    func everyKeyPastItsCeilingStopsItsCommandWithExitTwo(inEnvironment: Bool) throws {
        let folder = try TestEnvironment.makeTemporaryFolder("config-past")
        defer { try? FileManager.default.removeItem(at: folder) }
        for key in Self.boundedKeys {
            let value = Self.samples(try #require(key.bounds))[3].text
            var environment = CommandLineTests.cleanEnvironment
            environment["DATABASE_URL"] = "postgres://postgres@127.0.0.1:1/unused"
            var arguments = Self.command(using: key.path)
            if inEnvironment {
                environment[key.environmentVariable] = value
            } else {
                let file = folder.appendingPathComponent("pipeline.yaml")
                try ConfigurationRangeCommandTests.yaml([key.path: value]).write(
                    to: file, atomically: true, encoding: .utf8)
                arguments += ["--config", file.path]
            }
            let result = try runPipeline(arguments, environment: environment, in: folder)
            #expect(result.status == 2, "\(key.path) = \(value): exit \(result.status) \(result.standardError)")
            #expect(result.standardError.contains("'\(key.path)'"), "\(result.standardError)")
        }
    }

    /// The command that reads a key's section.
    static func command(using path: String) -> [String] {
        switch path.prefix(while: { $0 != "." }) {
        case "ingest": ["ingest", "."]
        case "targets": ["stats"]
        default: ["work", "--drain"]
        }
    }
}
