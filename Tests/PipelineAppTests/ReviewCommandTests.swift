import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// The review loop from the command line alone, through the built `pipeline` binary.
@Suite struct ReviewCommandTests {
    private func environment(_ url: String) -> [String: String] {
        var environment = CommandLineTests.cleanEnvironment
        environment["DATABASE_URL"] = url
        environment["PIPELINE_DATABASE_MIGRATIONS"] = TestDatabase.migrations.path
        environment["USER"] = "carol"
        return environment
    }

    @Test func aScriptClearsTheQueueWithListCorrectAcceptRejectAndReport() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = environment(url)
            let bakery = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)
            let junk = try await ReviewSeed.receipt("sroie_030.jpg", text: ReviewSeed.markupText, in: connection)

            let list = try runPipeline(["review", "list"], environment: environment)
            let json = try runPipeline(
                ["review", "list", "--json", "--reason", "unbalanced"], environment: environment)
            let correct = try runPipeline(
                ["correct", String(bakery), "--total", "6.75", "--merchant", "Corner Bakery", "--accept"],
                environment: environment)
            let reject = try runPipeline(["reject", String(junk)], environment: environment)
            let again = try runPipeline(["review", "list"], environment: environment)
            let report = try runPipeline(["report", "--by", "merchant", "--csv"], environment: environment)
            let show = try runPipeline(["show", String(bakery)], environment: environment)
            let export = try runPipeline(["export", "--format", "csv"], environment: environment)
            let stats = try runPipeline(["stats"], environment: environment)

            #expect(list.status == 0)
            #expect(list.standardOutput.hasPrefix("2 receipts need review (unbalanced 2"))
            #expect(list.standardOutput.contains("\(bakery)\tsroie_006.jpg"))
            let rows = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]]
            #expect(rows?.count == 2)
            #expect(correct.status == 0, "\(correct.standardError)")
            #expect(correct.standardOutput.contains("total 7.95 → 6.75 (by carol)"))
            #expect(correct.standardOutput.contains("status needs_review → accepted (by carol)"))
            #expect(reject.standardOutput == "receipt \(junk): rejected\n")
            #expect(again.standardOutput.hasPrefix("0 receipts need review"))
            #expect(report.standardOutput == "merchant,currency,expenses,total\nCorner Bakery,,1,6.75\n")
            #expect(show.standardOutput.contains("corrections:"))
            #expect(show.standardOutput.contains("carol: total 7.95 → 6.75"))
            let header = export.standardOutput.split(separator: "\n").first ?? ""
            #expect(
                header.hasSuffix(
                    "possible_duplicate_of,date_is_ambiguous,review_reasons,corrected,page_source,email_from,email_subject,email_sent_at,"
                        + "merchant_trust,date_trust,total_trust,brand"
                ))
            // Accepted by a person: no reason to wait is left (one decision: accepted ⇔ no reason).
            #expect(export.standardOutput.contains(",,merchant status total"), "\(export.standardOutput)")
            #expect(
                stats.standardOutput.contains(
                    "review: 4 corrections; 1 merchant names learned, used on 0 later receipts; 0 category rules"))
        }
    }

    @Test func aReceiptOnlyTheModelHeldBackIsListedFilteredAndExportedWithItsReason() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = environment(url)
            let heldBack = try await ReviewSeed.receipt(text: ReviewSeed.heldBackText, in: connection)
            try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)

            let list = try runPipeline(["review", "list"], environment: environment)
            let filtered = try runPipeline(
                ["review", "list", "--json", "--reason", "total_not_sure"], environment: environment)
            let export = try runPipeline(["export", "--format", "jsonl"], environment: environment)
            let help = try runPipeline(["review", "list", "--help"], environment: environment)

            #expect(list.standardOutput.hasPrefix("2 receipts need review ("))
            #expect(list.standardOutput.contains("total_not_sure 1, too_many_pages 0, page_total_differs 0)"))
            #expect(list.standardOutput.contains("\n\(heldBack)\tsroie_006.jpg\t"))
            let line = list.standardOutput.split(separator: "\n").first { $0.hasPrefix("\(heldBack)\t") }
            #expect(line?.contains("total_not_sure") == true, "\(list.standardOutput)")
            let rows = try JSONSerialization.jsonObject(with: Data(filtered.standardOutput.utf8)) as? [[String: Any]]
            #expect(rows?.map { $0["receipt_id"] as? Int } == [Int(heldBack)], "snake_case, as export's keys")
            // Held back by the trust models alone: each reason names a key field not trusted, the total among them.
            let reasons = rows?.first?["reasons"] as? [String] ?? []
            #expect(
                reasons.contains("total_not_sure") && reasons.allSatisfy { $0.hasSuffix("_not_sure") }, "\(reasons)")
            let exported = try export.standardOutput.split(separator: "\n").compactMap { line in
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            }
            let exportedRow = exported.first { $0["receipt_id"] as? String == "\(heldBack)" }
            #expect(exported.count == 2)
            #expect(
                exportedRow?["review_reasons"] as? String == reasons.joined(separator: " "), "\(export.standardOutput)")
            #expect(help.standardOutput.contains("total_not_sure"))
        }
    }

    @Test func badIdsAndValuesGetClearErrors() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = environment(url)
            let id = try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)

            let missing = try runPipeline(["accept", "424242", String(id)], environment: environment)
            let money = try runPipeline(["correct", String(id), "--total", "12,34"], environment: environment)
            let nothing = try runPipeline(["correct", String(id)], environment: environment)
            let reason = try runPipeline(["review", "list", "--reason", "blurry"], environment: environment)
            let month = try runPipeline(["report", "--month", "May"], environment: environment)

            #expect(missing.status == 1)
            #expect(
                missing.standardError.contains("no receipt has id 424242; list the queue with: pipeline review list"))
            #expect(missing.standardOutput.contains("receipt \(id): accepted"), "the other id is still accepted")
            #expect(money.status != 0)
            #expect(money.standardError.contains("total must be an amount such as 12.34"))
            #expect(nothing.standardError.contains("give at least one field to correct"))
            #expect(reason.standardError.contains("--reason must be one of unbalanced, incomplete, possible_duplicate"))
            #expect(month.standardError.contains("--month must look like 2024-05"))
        }
    }

    @Test func aScriptCorrectsLineItemsAndSeesTheChecksFollow() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = environment(url)
            let id = try await ReviewSeed.receipt(text: ReviewSeed.markupText, in: connection)

            let change = try runPipeline(
                ["correct", String(id), "--item", "1", "--amount", "5.99", "--add-item", "Soup=4.00"],
                environment: environment)
            let rename = try runPipeline(
                [
                    "correct", String(id), "--remove-item", "2", "--item", "1", "--name", "Club sandwich", "--quantity",
                    "2",
                ],
                environment: environment)
            let show = try runPipeline(["show", String(id)], environment: environment)

            #expect(change.status == 0, "\(change.standardError)")
            #expect(
                change.standardOutput.contains(
                    "receipt \(id): item #1 Sandwich = 4.00 → #1 Sandwich = 5.99 (by carol); item – → #2 Soup = 4.00"))
            #expect(
                change.standardOutput.contains(
                    "checks with the corrections: balanced: line items sum to 9.99, matching the printed total 9.99"))
            #expect(rename.status == 0, "\(rename.standardError)")
            #expect(
                rename.standardOutput.contains("item #1 Sandwich = 4.00 → #1 Club sandwich × 2 = 5.99 (by carol)"),
                "the machine's reading of the item stays")
            #expect(
                rename.standardOutput.contains(
                    "checks with the corrections: unbalanced: line items sum to 5.99 but the printed total is 9.99"))
            #expect(show.standardOutput.contains("item 1: Club sandwich × 2 @ – = 5.99"))
            #expect(!show.standardOutput.contains("item 2:"))
            #expect(show.standardOutput.contains("carol: item #1 Sandwich = 4.00 → #1 Club sandwich × 2 = 5.99"))
            #expect(
                show.standardOutput.contains(
                    "  checks with the corrections: unbalanced: line items sum to 5.99 but the printed total is 9.99"))
        }
    }

    @Test func badItemEditsGetClearErrorsNamingTheReceiptAndChangeNothing() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = environment(url)
            let id = try await ReviewSeed.receipt(text: ReviewSeed.markupText, in: connection)
            let receipt = String(id)

            let amount = try runPipeline(
                ["correct", receipt, "--item", "1", "--amount", "4,50"], environment: environment)
            let orphan = try runPipeline(["correct", receipt, "--amount", "4.50"], environment: environment)
            let bare = try runPipeline(["correct", receipt, "--item", "1"], environment: environment)
            let addition = try runPipeline(["correct", receipt, "--add-item", "Soup 4.00"], environment: environment)
            let position = try runPipeline(["correct", receipt, "--remove-item", "9"], environment: environment)
            let unknown = try runPipeline(["correct", "424242", "--remove-item", "1"], environment: environment)

            #expect(amount.status != 0)
            #expect(
                amount.standardError.contains(
                    "receipt \(id) item 1: amount must be an amount such as 12.34 (a dot for decimals, up to 3 of "
                        + "them, no thousands separator) (got \"4,50\")"))
            #expect(orphan.standardError.contains("say which with --item N"))
            #expect(bare.standardError.contains("--item 1 needs what to change: --name, --quantity or --amount"))
            #expect(
                addition.standardError.contains(
                    "receipt \(id) new item: item must be NAME=AMOUNT such as \"Milk 2L=3.99\" (got \"Soup 4.00\")"))
            #expect(position.status == 1)
            #expect(
                position.standardError.contains(
                    "receipt \(id) has no item 9 (it has only item 1); see pipeline show \(id)"))
            #expect(unknown.status == 1)
            #expect(unknown.standardError.contains("no receipt has id 424242"))
            #expect(try await connection.query("SELECT count(*) AS n FROM corrections").first?.int("n") == 0)
        }
    }

    @Test func categoriesAreListedTestedAddedRemovedAndApplied() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = environment(url)
            try await ReviewSeed.receipt(text: ReviewSeed.unbalancedText, in: connection)

            let unknown = try runPipeline(
                ["categories", "add", "--merchant", "corner bakery", "Snacks"], environment: environment)
            let test = try runPipeline(
                ["categories", "test", "--merchant", "corner bakery", "Groceries"], environment: environment)
            let add = try runPipeline(
                ["categories", "add", "--merchant", "corner bakery", "Groceries"], environment: environment)
            let dryRun = try runPipeline(["recategorize", "--dry-run"], environment: environment)
            let apply = try runPipeline(["recategorize"], environment: environment)
            let list = try runPipeline(["categories", "list"], environment: environment)
            let ruleID = try #require(
                list.standardOutput.split(separator: "\n").first { $0.contains("corner bakery") }?
                    .split(separator: "\t").first.map(String.init))
            let remove = try runPipeline(["categories", "remove", ruleID, "999999"], environment: environment)

            #expect(unknown.status != 0)
            #expect(
                unknown.standardError.contains(
                    "unknown expense category \"Snacks\"; known expense categories: Food & Dining"))
            #expect(test.standardOutput.hasPrefix("matches 1 of 1 stored receipts; would re-file 1"))
            #expect(add.status == 0)
            #expect(dryRun.standardOutput.hasPrefix("would re-file 1 of 1"))
            #expect(apply.standardOutput.hasPrefix("re-filed 1 of 1"))
            #expect(
                try await connection.query("SELECT category FROM expenses").first?.string("category") == "Groceries")
            #expect(remove.status == 1)
            #expect(remove.standardOutput.contains("removed 1 rule"))
            #expect(remove.standardError.contains("no rule has id 999999"))
        }
    }

    @Test func theReviewPageRefusesAnAddressBeyondLoopbackWithoutAToken() throws {
        var environment = CommandLineTests.cleanEnvironment
        environment["DATABASE_URL"] = TestDatabase.adminURL
        environment["PIPELINE_DATABASE_MIGRATE_ON_START"] = "false"
        let result = try runPipeline(["review", "--listen", "0.0.0.0:0"], environment: environment)
        #expect(result.status == 2)
        #expect(result.standardError.contains("refusing to serve the review page on 0.0.0.0 without a token"))
    }

    /// Validate first, touch nothing: the embedded cluster is not even created for a page that cannot start.
    @Test func aConfiguredAddressBeyondLoopbackWithoutATokenIsRefusedBeforeTheEmbeddedClusterStarts() throws {
        let folder = try TestEnvironment.makeTemporaryFolder("review-refused")
        defer { try? FileManager.default.removeItem(at: folder) }
        try "review:\n  listen: 0.0.0.0:0\n".write(
            to: folder.appendingPathComponent("x.yaml"), atomically: true, encoding: .utf8)
        let result = try runPipeline(
            ["review", "--config", "x.yaml"], environment: CommandLineTests.cleanEnvironment, in: folder)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("refusing to serve the review page on 0.0.0.0 without a token"))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left == ["x.yaml"], "the refused command left \(left)")
    }
}
