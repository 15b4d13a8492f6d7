import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// The LLM call budget, failures and stored OCR pages on a real database.
@Suite struct LLMCallStoreTests {
    private func insertReceipt(_ connection: PostgresConnection, _ name: String) async throws -> Int64 {
        let sha = String(repeating: name.hasPrefix("a") ? "a" : "b", count: 64)
        let ids = try await connection.transaction { connection in
            try ReceiptStore.insert(
                [
                    NewReceipt(
                        sha256: sha, originalName: name, originalPath: "/in/\(name)", format: .jpeg, bytes: [1, 2])
                ],
                in: connection)
        }
        return try #require(ids[sha])
    }

    @Test func attemptsAddUpToTheBudgetAndTheLastFailureIsKeptUntilAReply() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let first = try await insertReceipt(connection, "a.jpg")
            let second = try await insertReceipt(connection, "b.jpg")
            let refused = VisionModelError(.authentication, "receipt 1: key refused", status: 401, calls: 1)
            let overloaded = VisionModelError(.server, "receipt 2: HTTP 500", status: 500, calls: 2)
            try await connection.transaction { connection in
                try LLMCallStore.record(
                    .init(failure: refused), receiptID: first, jobID: nil, attempt: 1, in: connection)
                try LLMCallStore.record(
                    .init(failure: overloaded), receiptID: second, jobID: nil, attempt: 1, in: connection)
                try LLMCallStore.record(
                    .init(failure: overloaded), receiptID: second, jobID: nil, attempt: 2, in: connection)
            }
            #expect(try await LLMCallStore.callsUsed(receiptID: first, from: connection) == 1)
            #expect(try await LLMCallStore.callsUsed(receiptID: second, from: connection) == 4)
            #expect(try await LLMCallStore.failedReceipts(from: connection) == [first, second])
            #expect(try await LLMCallStore.failedReceipts(codes: [.authentication], from: connection) == [first])

            let stats = try await StatsStore.load(
                since: nil, latencyTarget: .seconds(5),
                pricing: LLMPricing(inputPerMillion: 0.15, outputPerMillion: 0.60), from: connection)
            #expect(stats.llmFailedCalls == ["authentication": 1, "server": 4])

            try await connection.transaction { connection in
                try LLMCallStore.record(.answered(calls: 1), receiptID: second, jobID: nil, attempt: 3, in: connection)
                try LLMCallStore.resetBudget(receiptIDs: [first], in: connection)
            }
            #expect(try await LLMCallStore.failedReceipts(from: connection).isEmpty)
            #expect(try await LLMCallStore.callsUsed(receiptID: first, from: connection) == 0)
            #expect(try await LLMCallStore.callsUsed(receiptID: second, from: connection) == 5)
        }
    }

    @Test func aKeptPageAndTheCallsUsedComeBackWithTheReceipt() async throws {
        try await TestDatabase.withMigratedDatabase { connection, _ in
            let receipt = try await insertReceipt(connection, "a.jpg")
            #expect(try await ReceiptStore.load(receipt, from: connection)?.keptPage == nil)
            let kept = KeptPage(
                page: OCRPage(text: "CORNER CAFE\nTOTAL 13.35"), madeBy: .tesseract, llmImage: Data([0xFF, 0xD8, 7]))
            let trace = AttemptTrace(llmCalls: .answered(calls: 2), newPage: kept)
            try await connection.transaction { connection in
                try LLMCallStore.record(trace, receiptID: receipt, jobID: nil, attempt: 1, in: connection)
            }
            let loaded = try await ReceiptStore.load(receipt, from: connection)
            #expect(loaded?.keptPage == kept)
            #expect(loaded?.llmCallsUsed == 2)
            #expect(loaded?.bytes == [1, 2])

            let withoutImage = KeptPage(page: kept.page, madeBy: .ppocr, llmImage: nil)
            try await connection.transaction { connection in
                try LLMCallStore.keep(withoutImage, receiptID: receipt, in: connection)
            }
            #expect(try await ReceiptStore.load(receipt, from: connection)?.keptPage == withoutImage)
        }
    }
}
