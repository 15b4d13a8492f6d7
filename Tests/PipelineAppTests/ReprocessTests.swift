import DatabaseTestSupport
import Foundation
import PipelineApp
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// One LLM call budget per receipt over all queue attempts, the OCR page kept from the first attempt, and
/// `pipeline reprocess`, through the built `pipeline` binary with real receipts, Tesseract and PostgreSQL and the
/// fake LLM server.
@Suite struct ReprocessTests {
    private func environment(_ url: String, llm baseURL: URL? = nil, key: String = "sk-test-not-a-secret")
        -> [String: String]
    {
        var environment = CommandLineTests.environment(database: url)
        environment["PIPELINE_QUEUE_BACKOFF_BASE"] = "10ms"
        environment["PIPELINE_QUEUE_BACKOFF_CAP"] = "20ms"
        // These tests count attempts, calls and OCR runs: a lease that ran out on a starved machine would deal the
        // job to a rescue attempt (that path is FaultTests' and WorkerRuntimeTests'), so no lease runs out here.
        environment["PIPELINE_QUEUE_LEASE"] = "600s"
        environment["USER"] = "carol"
        if let baseURL {
            environment["PIPELINE_LLM_PROVIDER"] = "openai"
            environment["PIPELINE_LLM_BASE_URL"] = baseURL.absoluteString
            environment["OPENAI_API_KEY"] = key
        }
        return environment
    }

    private func ingestAndWork(_ names: [String], _ environment: [String: String]) throws -> ChildProcess.Result {
        let paths = names.map { TestEnvironment.receipt($0).path }
        let ingest = try runPipeline(["ingest"] + paths, environment: environment)
        #expect(ingest.status == 0, "\(ingest.standardError)")
        return try runPipeline(["work", "--drain"], environment: environment)
    }

    private func receiptIDs(_ connection: PostgresConnection) async throws -> [String: Int64] {
        var ids: [String: Int64] = [:]
        for row in try await connection.query("SELECT id, original_name FROM receipts") {
            ids[try row.string("original_name") ?? ""] = Int64(try row.int("id") ?? 0)
        }
        return ids
    }

    @Test func aServerFailingForeverGetsRetriesPlusOneCallsPerReceiptOverAllAttempts() async throws {
        let server = try FakeProviderServer()
        let baseURL = server.baseURL("server-error")
        try await TestDatabase.withMigratedDatabase { connection, url in
            var environment = environment(url, llm: baseURL)
            environment["PIPELINE_LLM_RETRIES"] = "1"
            environment["PIPELINE_QUEUE_MAX_ATTEMPTS"] = "3"
            let work = try ingestAndWork(["sroie_006.jpg", "sroie_030.jpg", "wr_13_10.jpeg"], environment)
            #expect(work.status == 0, "\(work.standardError)")

            // Without the shared budget: 3 attempts × 2 calls for each receipt.
            #expect(try await server.requests(at: baseURL).count == 3 * 2)
            let used = try await connection.query("SELECT llm_calls_used, llm_failure FROM receipts")
            #expect(try used.map { try $0.int("llm_calls_used") } == [2, 2, 2])
            #expect(try used.map { try $0.string("llm_failure") } == ["server", "server", "server"])
            let expenses = try await connection.query(
                "SELECT status, findings::text AS findings, review_reasons::text AS reasons FROM expenses")
            #expect(expenses.count == 3)
            #expect(try expenses.allSatisfy { try $0.string("findings")?.contains("the LLM was not used") == true })
            #expect(try expenses.allSatisfy { try $0.string("reasons")?.contains("llm_failed") == true })
            #expect(try expenses.allSatisfy { try $0.string("reasons")?.contains("llm_disagreement") == false })
            // OCR ran once per receipt.
            let ocrRuns = try await connection.query("SELECT count(*) AS n FROM stage_timings WHERE stage = 'decode'")
            #expect(try ocrRuns.first?.int("n") == 3)

            let stats = try runPipeline(["stats"], environment: environment)
            #expect(stats.standardOutput.contains("LLM failed calls: server 6"), "\(stats.standardOutput)")
        }
    }

    @Test func aSecondAttemptAfterAnLLMFailureReusesTheFirstAttemptsOCRPage() async throws {
        let server = try FakeProviderServer()
        // 503 with Retry-After: 2, longer than llm.timeout: each attempt makes one call and gives up, and the job's
        // next attempt waits the 2 s the server asked for (the queue's own backoff here is 10–20 ms).
        let baseURL = server.baseURL("unavailable-for-two-seconds")
        try await TestDatabase.withMigratedDatabase { connection, url in
            var environment = environment(url, llm: baseURL)
            environment["PIPELINE_LLM_RETRIES"] = "1"
            environment["PIPELINE_LLM_TIMEOUT"] = "1s"
            environment["PIPELINE_QUEUE_MAX_ATTEMPTS"] = "3"
            let work = try ingestAndWork(["sroie_006.jpg"], environment)
            #expect(work.status == 0, "\(work.standardError)")

            let timings = try await connection.query(
                "SELECT attempt, stage, detail FROM stage_timings ORDER BY attempt, started_at, id")
            func stages(_ attempt: Int) throws -> [String] {
                try timings.filter { try $0.int("attempt") == attempt }.compactMap { try $0.string("stage") }
            }
            // On a failure, every attempt's stages and what the worker logged (a lost lease, a failed renewal).
            let history = try (1...3).map { "attempt \($0): \(try stages($0))" }.joined(separator: "; ")
            let context = "\(history)\nworker: \(work.standardError)"
            let firstAttempt = try stages(1)
            #expect(
                ["load", "decode", "ocr", "compress", "extract", "llm"].allSatisfy(firstAttempt.contains), "\(context)")
            // No decode, normalize or compress: the kept page stands in for the image stages.
            #expect(try stages(2) == ["load", "ocr", "extract", "llm", "reconcile", "categorize"], "\(context)")
            let reused = try timings.first { try $0.int("attempt") == 2 && $0.string("stage") == "ocr" }
            let engine = PipelineConfiguration().ocr.engine.rawValue
            #expect(try reused?.string("detail") == "reused the page read before (\(engine))")
            #expect(
                try stages(3).isEmpty, "the budget was spent on attempt 2: the expense was committed then; \(context)")
            let wait = try await connection.query(
                """
                SELECT extract(epoch FROM (SELECT min(started_at) FROM stage_timings WHERE attempt = 2)
                    - (SELECT started_at FROM stage_timings WHERE attempt = 1 AND stage = 'llm'))::float8 AS seconds
                """
            ).first?.double("seconds")
            #expect(try #require(wait) >= 2, "attempt 2 began \(wait ?? 0) s after attempt 1's call; \(context)")

            let receipt = try await connection.query(
                "SELECT ocr_page_made_by, llm_calls_used, ocr_page_llm_image IS NOT NULL AS has_image FROM receipts"
            ).first
            #expect(try receipt?.string("ocr_page_made_by") == engine)
            #expect(try receipt?.bool("has_image") == true)
            #expect(try receipt?.int("llm_calls_used") == 2)
            let calls = try await connection.query("SELECT attempt, calls, outcome FROM llm_calls ORDER BY attempt")
            #expect(try calls.map { try $0.int("attempt") } == [1, 2], "\(context)")
            #expect(try calls.map { try $0.int("calls") } == [1, 1])
            #expect(try await server.requests(at: baseURL).count == 2)
        }
    }

    @Test func afterFixingTheKeyReprocessLLMFailedReRunsExactlyTheFailedReceipts() async throws {
        let server = try FakeProviderServer()
        let baseURL = server.baseURL("needs-fixed-key")
        try await TestDatabase.withMigratedDatabase { connection, url in
            let fixed = environment(url, llm: baseURL, key: "sk-fixed")
            let refused = environment(url, llm: baseURL, key: "sk-old")
            #expect(try ingestAndWork(["sroie_006.jpg"], fixed).status == 0)
            let work = try ingestAndWork(["sroie_030.jpg", "wr_13_10.jpeg"], refused)
            #expect(work.status == 1, "a refused key makes work exit 1")
            let ids = try await receiptIDs(connection)
            let failed = [ids["sroie_030.jpg"], ids["wr_13_10.jpeg"]].compactMap { $0 }.sorted()
            #expect(try await LLMCallStore.failedReceipts(from: connection) == failed)
            #expect(try await server.requests(at: baseURL).count == 3)

            let reprocess = try runPipeline(["reprocess", "--llm-failed"], environment: fixed)
            #expect(reprocess.status == 0, "\(reprocess.standardError)")
            let list = failed.map(String.init).joined(separator: ", ")
            #expect(reprocess.standardOutput.hasPrefix("reprocess: 2 receipt(s) queued (\(list))"))
            let again = try runPipeline(["work", "--drain"], environment: fixed)
            #expect(again.status == 0, "\(again.standardError)")

            #expect(try await server.requests(at: baseURL).count == 5, "one call each for the two failed receipts")
            #expect(try await LLMCallStore.failedReceipts(from: connection).isEmpty)
            let expenses = try await connection.query("SELECT receipt_id, llm_calls FROM expenses ORDER BY receipt_id")
            #expect(expenses.count == 3, "rewritten, not duplicated")
            #expect(try expenses.map { try $0.int("llm_calls") } == [1, 1, 1])
            // The reprocess reused the pages the refused run kept.
            let reused = try await connection.query(
                """
                SELECT count(*) AS n FROM stage_timings t JOIN jobs j ON j.id = t.job_id
                WHERE j.kind = 'reprocess' AND t.stage = 'ocr' AND t.detail LIKE 'reused the page%'
                """)
            #expect(try reused.first?.int("n") == 2)
        }
    }

    @Test func aCorrectedTotalSurvivesAReprocessThatRewritesTheRest() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = environment(url)
            #expect(try ingestAndWork(["sroie_006.jpg"], environment).status == 0)
            let id = try #require(try await receiptIDs(connection)["sroie_006.jpg"])
            let correct = try runPipeline(["correct", String(id), "--total", "99.99"], environment: environment)
            #expect(correct.status == 0, "\(correct.standardError)")
            let before = try await connection.query("SELECT merchant, category, committed_at FROM expenses").first
            // A new rule the reprocess must apply: this merchant is filed under Travel.
            let merchant = try #require(try before?.string("merchant"))
            let rule = try runPipeline(
                ["categories", "add", "--merchant", merchant, "--priority", "1", "Travel"], environment: environment)
            #expect(rule.status == 0, "\(rule.standardError)")

            let reprocess = try runPipeline(["reprocess", String(id)], environment: environment)
            #expect(reprocess.standardOutput.hasPrefix("reprocess: 1 receipt(s) queued (\(id))"))
            #expect(try runPipeline(["work", "--drain"], environment: environment).status == 0)

            let after = try await connection.query(
                "SELECT total::text AS total, category, committed_at FROM expenses"
            ).first
            #expect(try after?.string("total").flatMap { Decimal(string: $0) } == Decimal(string: "99.99"))
            #expect(try before?.string("category") != "Travel")
            #expect(try after?.string("category") == "Travel", "the reprocess re-ran categorization")
            #expect(try after?.date("committed_at") ?? .distantPast > before?.date("committed_at") ?? .distantFuture)
            let count = try await connection.query("SELECT count(*) AS n FROM expenses").first
            #expect(try count?.int("n") == 1)
        }
    }

    @Test func statusPicksExactlyThoseReceiptsAndUnknownIdsAreNamed() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = environment(url)
            let waiting = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            let accepted = try await ReviewSeed.receipt(
                text: ReviewSeed.balancedText, machineAccepted: true, in: connection)
            let alsoWaiting = try await ReviewSeed.receipt(text: ReviewSeed.markupText, in: connection)

            let byStatus = try runPipeline(["reprocess", "--status", "needs_review"], environment: environment)
            #expect(byStatus.status == 0, "\(byStatus.standardError)")
            #expect(byStatus.standardOutput.hasPrefix("reprocess: 2 receipt(s) queued (\(waiting), \(alsoWaiting))"))
            let queued = try await connection.query(
                "SELECT receipt_id FROM jobs WHERE kind = 'reprocess' AND state = 'ready' ORDER BY receipt_id")
            #expect(try queued.map { try $0.int("receipt_id").map(Int64.init) } == [waiting, alsoWaiting])

            let again = try runPipeline(
                ["reprocess", String(waiting), "987654", String(accepted)], environment: environment)
            #expect(again.status == 1)
            #expect(again.standardError.contains("no receipt has id 987654"))
            #expect(again.standardOutput.contains("1 receipt(s) queued (\(accepted))"))
            #expect(again.standardOutput.contains("already have a job queued or running (\(waiting))"))
        }
    }

    @Test func aLaterReceiptFromACorrectedMerchantIsFiledByTheCorrectedName() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = environment(url)
            #expect(try ingestAndWork(["sroie_006.jpg"], environment).status == 0)
            let first = try #require(try await receiptIDs(connection)["sroie_006.jpg"])
            let correct = try runPipeline(
                ["correct", String(first), "--merchant", "Skyline Travel Desk"], environment: environment)
            #expect(correct.status == 0, "\(correct.standardError)")
            let rule = try runPipeline(
                ["categories", "add", "--merchant", "skyline travel", "--priority", "1", "Travel"],
                environment: environment)
            #expect(rule.status == 0, "\(rule.standardError)")

            // The same scan again as another file (a byte after the image's end): the same header, a new receipt.
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let copy = folder.appendingPathComponent("again.jpg")
            try (Data(contentsOf: TestEnvironment.receipt("sroie_006.jpg")) + Data([0])).write(to: copy)
            #expect(try runPipeline(["ingest", copy.path], environment: environment).status == 0)
            #expect(try runPipeline(["work", "--drain"], environment: environment).status == 0)

            let later = try await connection.query(
                "SELECT merchant, category, findings::text AS findings FROM expenses WHERE receipt_id <> $1", [first]
            ).first
            // Read as the known merchant the correction taught (a ranked candidate), or put in place of the reading.
            #expect(try later?.string("merchant") == "Skyline Travel Desk")
            #expect(try later?.string("category") == "Travel", "categorized by the corrected name")

            // Reprocessed, the corrected receipt itself is categorized by the name the person gave it.
            #expect(try runPipeline(["reprocess", String(first)], environment: environment).status == 0)
            #expect(try runPipeline(["work", "--drain"], environment: environment).status == 0)
            let corrected = try await connection.query(
                "SELECT merchant, category FROM expenses WHERE receipt_id = $1", [first]
            ).first
            #expect(try corrected?.string("merchant") == "Skyline Travel Desk")
            #expect(try corrected?.string("category") == "Travel")
            let stats = try runPipeline(["stats"], environment: environment)
            #expect(stats.standardOutput.contains("1 merchant names learned, used on 1 later receipts"))
        }
    }

    /// A batch read before anyone reviews it: the person's confirmation of one receipt queues the receipts waiting
    /// beside it that read like its merchant, and the worker reads them again with the name the person gave.
    @Test func aConfirmationLetsTheWorkerReadAgainTheHeldReceiptsOfItsMerchant() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = environment(url)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            // The same scan again as another file (a byte after the image's end): the same header, a new receipt.
            let copy = folder.appendingPathComponent("again.jpg")
            try (Data(contentsOf: TestEnvironment.receipt("wr_89_9.jpeg")) + Data([0])).write(to: copy)
            let paths = [
                TestEnvironment.receipt("wr_89_9.jpeg").path, copy.path, TestEnvironment.receipt("wr_58_20.jpeg").path,
            ]
            #expect(try runPipeline(["ingest"] + paths, environment: environment).status == 0)
            #expect(try runPipeline(["work", "--drain"], environment: environment).status == 0)
            let ids = try await receiptIDs(connection)
            let first = try #require(ids["wr_89_9.jpeg"])
            let again = try #require(ids["again.jpg"])
            let other = try #require(ids["wr_58_20.jpeg"])
            func expense(_ id: Int64) async throws -> (merchant: String?, status: String?) {
                let row = try await connection.query(
                    "SELECT merchant, status FROM expenses WHERE receipt_id = $1", [id]
                )
                .first
                return (try row?.string("merchant"), try row?.string("status"))
            }
            let before = try await expense(again)
            try #require(before.status == "needs_review", "the copy waits for review beside the first")
            #expect(before.merchant != "Panda Express Boston")

            let correct = try runPipeline(
                ["correct", String(first), "--merchant", "Panda Express Boston", "--accept"], environment: environment)
            #expect(correct.status == 0, "\(correct.standardError)")
            #expect(
                correct.standardOutput.contains(
                    "1 receipt waiting for review that read like it is queued to be read again (\(again))"),
                "\(correct.standardOutput)")
            let queued = try await connection.query("SELECT receipt_id FROM jobs WHERE kind = 'reprocess'").map {
                Int64(try $0.requiredInt("receipt_id"))
            }
            #expect(queued == [again], "only the held receipt that reads like the confirmed merchant, not \(other)")
            #expect(try runPipeline(["work", "--drain"], environment: environment).status == 0)
            #expect(try await expense(again).merchant == "Panda Express Boston", "read again as the known merchant")
        }
    }

    @Test(arguments: [
        ([], "give receipt ids"),
        (["12", "--llm-failed"], "one of them"),
        (["--status", "done"], "Please provide one of 'accepted', 'needs_review' or 'rejected'"),
        (["--since", "yesterday"], "--since must be a duration"),
    ])
    func badArgumentsAreUsageErrors(arguments: [String], message: String) throws {
        let result = try runPipeline(["reprocess"] + arguments, environment: CommandLineTests.cleanEnvironment)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }
}
