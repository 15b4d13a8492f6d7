import DatabaseTestSupport
import Foundation
import PostgresStore
import TestSupport
import Testing

/// The accounting exports of the shipped receipts after a real run, checked by the tools that read them:
/// `hledger check --strict` (Debian's `hledger`) and `bean-check` (Debian's `beancount`).
@Suite struct AccountingExportTests {
    @Test func shippedReceiptsExportToJournalsThatHledgerAndBeanCheckAccept() async throws {
        for tool in ["/usr/bin/hledger", "/usr/bin/bean-check"] {
            try #require(
                FileManager.default.isExecutableFile(atPath: tool),
                "\(tool) is missing: run scripts/install-dependencies")
        }
        let folder = try TestEnvironment.makeTemporaryFolder("accounting")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestDatabase.withMigratedDatabase { connection, url in
            let environment = CommandLineTests.environment(database: url)
            let images = try FileManager.default.contentsOfDirectory(atPath: TestEnvironment.receiptsFolder.path)
                .filter { !$0.hasSuffix(".json") }.map { TestEnvironment.receipt($0).path }
            #expect(try runPipeline(["ingest"] + images, environment: environment).status == 0)
            let work = try runPipeline(["work", "--drain"], environment: environment)
            #expect(work.status == 0, "\(work.standardError)")
            // Accept them all, one with a payee that tries to break out of its field.
            let ids = try await connection.query("SELECT receipt_id FROM expenses ORDER BY receipt_id").compactMap {
                try $0.int("receipt_id").map(String.init)
            }
            let postable = try await connection.query(
                """
                SELECT receipt_id FROM expenses
                WHERE expense_date IS NOT NULL AND total IS NOT NULL AND currency IS NOT NULL ORDER BY receipt_id
                """)
            let hostile = try #require(try postable.first?.int("receipt_id").map(String.init))
            let corrected = try runPipeline(
                ["correct", hostile, "--merchant", "Joe \"Deli\"; tab | 2"], environment: environment)
            #expect(corrected.status == 0, "\(corrected.standardError)")
            #expect(try runPipeline(["accept"] + ids, environment: environment).status == 0)

            let ledger = try export("ledger", environment, to: folder.appendingPathComponent("receipts.journal"))
            let check = try ChildProcess.run("/usr/bin/hledger", ["-f", ledger.file.path, "check", "--strict"])
            #expect(check.status == 0, "hledger check: \(check.standardError)")
            let print = try ChildProcess.run("/usr/bin/hledger", ["-f", ledger.file.path, "print"])
            let transactions = print.standardOutput.split(separator: "\n").filter { $0.first?.isNumber == true }
            #expect(transactions.count + ledger.leftOut.count == ids.count, "every accepted receipt is posted or named")
            #expect(transactions.count >= ids.count / 2, "most shipped receipts are postable: \(ledger.leftOut)")
            #expect(print.standardOutput.contains("Joe \"Deli\", tab / 2"))

            var byItem = environment
            byItem["PIPELINE_ACCOUNTS_ITEM_POSTINGS"] = "true"
            byItem["PIPELINE_ACCOUNTS_PAYMENTS"] = "unknown=Assets:Wallet"
            let items = try export("ledger", byItem, to: folder.appendingPathComponent("items.journal"))
            let itemsCheck = try ChildProcess.run("/usr/bin/hledger", ["-f", items.file.path, "check", "--strict"])
            #expect(itemsCheck.status == 0, "hledger check: \(itemsCheck.standardError)")

            let beancount = try export("beancount", environment, to: folder.appendingPathComponent("r.beancount"))
            let beanCheck = try ChildProcess.run("/usr/bin/bean-check", [beancount.file.path])
            #expect(beanCheck.status == 0 && beanCheck.standardError.isEmpty, "bean-check: \(beanCheck.standardError)")
            #expect(beancount.leftOut == ledger.leftOut)

            let csv = try runPipeline(["export", "--format", "import-csv"], environment: environment)
            let rows = csv.standardOutput.split(separator: "\n")
            #expect(rows.first == "date,payee,amount,currency,category,account,notes,external_id")
            #expect(rows.count - 1 == transactions.count)
        }
    }

    /// Runs one export into a file; returns it and the receipts it left out (named on stderr, exit 1).
    private func export(_ format: String, _ environment: [String: String], to file: URL) throws
        -> (file: URL, leftOut: [String])
    {
        let result = try runPipeline(["export", "--format", format], environment: environment)
        try result.standardOutput.write(to: file, atomically: true, encoding: .utf8)
        let leftOut = result.standardError.split(separator: "\n").filter { $0.hasPrefix("export: left out receipt") }
            .map(String.init)
        #expect(result.status == (leftOut.isEmpty ? 0 : 1), "\(result.standardError)")
        return (file, leftOut)
    }
}
