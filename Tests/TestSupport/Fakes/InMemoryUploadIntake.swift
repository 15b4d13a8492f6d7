import Foundation
import PipelineCore

/// The `UploadIntake` port's fake: uploads kept in memory, a file whose bytes were uploaded before is a duplicate, a
/// file that is no image the pipeline decodes is rejected with the decode stage's reason; progress is what the test
/// sets. A switch makes every call fail the way a database that went away does.
public actor InMemoryUploadIntake: UploadIntake {
    private var stored: [[UInt8]: Int64] = [:]
    private var stages: [Int64: (ProcessingStage, ExpenseStatus?)] = [:]
    private var failure: (any Error)?

    public init() {}

    /// The uploads stored so far, by receipt id: their bytes.
    public var receipts: [Int64: [UInt8]] {
        Dictionary(uniqueKeysWithValues: stored.map { ($1, $0) })
    }

    /// Moves receipt `id` on: where it is and, once done, its expense's status.
    public func set(_ id: Int64, _ stage: ProcessingStage, status: ExpenseStatus? = nil) {
        stages[id] = (stage, status)
    }

    /// Makes every later call throw `error` (nil: calls work again).
    public func failCalls(with error: (any Error)?) {
        failure = error
    }

    public func ingest(fileName: String, bytes: [UInt8]) async throws -> UploadResult {
        if let failure { throw failure }
        if let id = stored[bytes] { return .duplicate(receiptID: id) }
        guard case .supported = detectImageFormat(leadingBytes: bytes.prefix(imageSignatureLength)) else {
            let error =
                bytes.isEmpty
                ? ImageError.empty(file: fileName) : ImageError.unrecognizedFormat(file: fileName, leadingBytes: bytes)
            return .rejected(reason: "\(error.problem). \(error.remedy)")
        }
        let id = Int64(stored.count + 1)
        stored[bytes] = id
        stages[id] = (.queued, nil)
        return .stored(receiptID: id)
    }

    public func progress(of receiptIDs: [Int64]) async throws -> [ReceiptProgress] {
        if let failure { throw failure }
        return receiptIDs.compactMap { id in
            stages[id].map { ReceiptProgress(receiptID: id, stage: $0.0, status: $0.1) }
        }
    }
}
