import Foundation
import PipelineCore

/// The `ReceiptSource` port's fake: stored receipts in memory, by id, and a switch that makes loads fail the way a
/// database that went away does.
public actor InMemoryReceiptSource: ReceiptSource {
    private var receipts: [Int64: StoredReceipt] = [:]
    private var failure: (any Error)?

    public init(_ receipts: [StoredReceipt] = []) {
        for receipt in receipts { self.receipts[receipt.id] = receipt }
    }

    /// Stores a receipt (replacing one with the same id).
    public func store(_ receipt: StoredReceipt) {
        receipts[receipt.id] = receipt
    }

    /// Makes every later load throw `error` (nil: loads work again).
    public func failLoads(with error: (any Error)?) {
        failure = error
    }

    public func receipt(_ id: Int64) async throws -> StoredReceipt? {
        if let failure { throw failure }
        return receipts[id]
    }
}

extension StoredReceipt {
    /// A shipped receipt image (`TestEnvironment.receipt(name)`) as a worker loads it from the `receipts` table.
    public static func shipped(
        _ name: String, id: Int64, ingestedAt: Date = Date(timeIntervalSince1970: 1_700_000_000),
        llmCallsUsed: Int = 0, keptPage: KeptPage? = nil
    ) throws -> StoredReceipt {
        let bytes = try Data(contentsOf: TestEnvironment.receipt(name))
        guard case .supported(let format) = detectImageFormat(leadingBytes: bytes.prefix(imageSignatureLength)) else {
            throw ImageError.unrecognizedFormat(file: name, leadingBytes: bytes)
        }
        return StoredReceipt(
            id: id, sha256: "", originalName: name, format: format, bytes: Array(bytes), ingestedAt: ingestedAt,
            llmCallsUsed: llmCallsUsed, keptPage: keptPage)
    }
}
