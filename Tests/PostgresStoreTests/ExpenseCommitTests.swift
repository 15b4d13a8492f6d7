import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// Commits wait on one lock for the duplicate lookup; a worker that stops talking in the middle of its commit (cut
/// off from the server) must not stall every other worker's commits.
@Suite struct ExpenseCommitTests {
    @Test func aCommitLeftIdleMidTransactionIsEndedAndTheNextCommitGoesThrough() async throws {
        try await TestDatabase.withMigratedDatabase { connection, url in
            let stalled = try await PostgresConnection.connect(to: PostgresTarget(url), label: "stalled worker")
            let first = try await ReviewSeed.storedReceipt("sroie_006.jpg", in: connection)
            let second = try await ReviewSeed.storedReceipt("sroie_030.jpg", in: connection)
            let stalledRecord = try await ReviewSeed.record(
                text: ReviewSeed.balancedText, receiptID: first, in: connection)
            let nextRecord = try await ReviewSeed.record(
                text: ReviewSeed.unbalancedText, receiptID: second, in: connection)
            let idle = TimeInterval(TransactionLimits.idleSeconds)
            // The stalled worker commits, then goes silent inside its transaction, holding the lookup lock.
            let stalledCommit = Task {
                try await stalled.transaction { connection in
                    _ = try ExpenseStore.commit(stalledRecord, jobID: 0, attempt: 1, in: connection)
                    Thread.sleep(forTimeInterval: idle * 2 + 2)
                }
            }
            try await Task.sleep(for: .seconds(1))
            let started = Date()
            let committed = try await connection.transaction { connection in
                try ExpenseStore.commit(nextRecord, jobID: 0, attempt: 1, in: connection)
            }
            let waited = Date().timeIntervalSince(started)
            #expect(committed != nil)
            // It went through once the server ended the idle session, well before the stalled worker woke up.
            #expect(waited < idle * 2)
            await #expect(throws: PostgresError.self) { try await stalledCommit.value }
            let stored = try await connection.query(
                "SELECT receipt_id FROM expenses ORDER BY receipt_id"
            ).map { try $0.requiredID("receipt_id") }
            #expect(stored == [second])
            await stalled.close()
        }
    }
}
