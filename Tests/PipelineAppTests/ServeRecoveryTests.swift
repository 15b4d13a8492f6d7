import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// `pipeline serve` over the embedded database as a self-hoster runs it: `pipeline db stop` and `db start` under the
/// running server. While the database is down every page and `/readyz` answer 503; once it is back every page
/// answers again without restarting `serve`.
@Suite struct ServeRecoveryTests {
    @Test func everyPageAnswersAgainAfterTheDatabaseRestarts() async throws {
        let folder = try TestEnvironment.makeTemporaryFolder("serve-recovery")
        defer { try? FileManager.default.removeItem(at: folder) }
        let inbox = folder.appendingPathComponent("inbox")
        try FileManager.default.createDirectory(at: inbox, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: TestEnvironment.receipt("sroie_006.jpg"), to: inbox.appendingPathComponent("a-read.jpg"))
        let jpeg = try Data(contentsOf: TestEnvironment.receipt("sroie_030.jpg"))
        try jpeg.prefix(jpeg.count / 3).write(to: inbox.appendingPathComponent("b-truncated.jpg"))
        var environment = CommandLineTests.cleanEnvironment
        environment["PIPELINE_DATABASE_MIGRATIONS"] = TestDatabase.migrations.path
        environment["PIPELINE_INGEST_SETTLE_TIME"] = "0s"
        func pipeline(_ arguments: String...) throws -> ChildProcess.Result {
            try runPipeline(arguments, environment: environment, in: folder)
        }
        let start = try pipeline("db", "start")
        try #require(start.status == 0, "db start: \(start.standardOutput)\(start.standardError)")
        defer { _ = try? pipeline("db", "stop") }
        _ = try pipeline("ingest", inbox.path)
        let work = try pipeline("work", "--drain")
        #expect(work.standardOutput.contains("1 done, 0 retried, 1 dead"), "\(work.standardOutput)")

        let server = try BackgroundProcess(
            TestEnvironment.pipelineBinary, ["serve", "--listen", "127.0.0.1:0", "--workers", "0"],
            environment: environment, folder: folder)
        do {
            let address = try await server.waitForOutput(/pipeline serve: (http:\/\/[0-9.:]+)\//)
            try await restartTheDatabase(under: address, pipeline)
        } catch {
            Issue.record("\(error)\nthe server said:\n\(server.output)")
        }
        await server.stop()
    }

    /// Reads every page, stops the database, reads some (503), starts it and reads every page until all answer.
    private func restartTheDatabase(under address: String, _ pipeline: (String...) throws -> ChildProcess.Result)
        async throws
    {
        // Receipt 1 was read, receipt 2 failed (the files are ingested in name order into a new database).
        let pages = [
            "/queue", "/receipts/1", "/receipts/1/image", "/receipts/2", "/dashboard", "/dashboard?item=a", "/rules",
            "/upload", "/metrics", "/readyz",
        ]
        let before = try pages.map { try Self.status(address + $0) }
        #expect(before.allSatisfy { $0 == 200 }, "before: \(zip(pages, before).map { "\($0) \($1)" })")

        let stop = try pipeline("db", "stop")
        try #require(stop.status == 0, "db stop: \(stop.standardOutput)\(stop.standardError)")
        let down = try ["/queue", "/receipts/1", "/rules", "/readyz"].map { try Self.status(address + $0) }
        #expect(down == [503, 503, 503, 503], "while the database is down: \(down)")

        let again = try pipeline("db", "start")
        try #require(again.status == 0, "db start: \(again.standardOutput)\(again.standardError)")
        let started = ContinuousClock.now
        var after = try pages.map { try Self.status(address + $0) }
        while after.contains(where: { $0 != 200 }) && ContinuousClock.now - started < .seconds(30) {
            try await Task.sleep(for: .milliseconds(500))
            after = try pages.map { try Self.status(address + $0) }
        }
        #expect(after.allSatisfy { $0 == 200 }, "30 s after db start: \(zip(pages, after).map { "\($0) \($1)" })")
        print("serve-recovery: every page answered \(ContinuousClock.now - started) after db start")
    }

    /// The HTTP status of a GET.
    private static func status(_ url: String) throws -> Int {
        let result = try ChildProcess.run(
            "/usr/bin/curl",
            ["--silent", "--output", "/dev/null", "--max-time", "20", "--write-out", "%{http_code}", url])
        return Int(result.standardOutput) ?? 0
    }
}
