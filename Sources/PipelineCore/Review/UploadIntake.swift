/// Takes uploaded files into the pipeline and reports how far each has come.
public protocol UploadIntake: Sendable {
    /// Checks and stores one uploaded file (with its job), or says why not.
    func ingest(fileName: String, bytes: [UInt8]) async throws -> UploadResult
    /// Where each of these receipts is: queued, being read, or committed with its status.
    func progress(of receiptIDs: [Int64]) async throws -> [ReceiptProgress]
}

/// What happened to one uploaded file.
public enum UploadResult: Sendable, Equatable {
    /// A new image, stored and queued as this receipt.
    case stored(receiptID: Int64)
    /// The same image was stored before, as this receipt; nothing new was queued.
    case duplicate(receiptID: Int64)
    /// Refused, with the reason and what to do (the same words `pipeline ingest` prints).
    case rejected(reason: String)
}

/// How far one uploaded receipt has come.
public struct ReceiptProgress: Sendable, Equatable, Codable {
    public let receiptID: Int64
    public let stage: ProcessingStage
    /// The committed expense's status once done.
    public let status: ExpenseStatus?

    public init(receiptID: Int64, stage: ProcessingStage, status: ExpenseStatus?) {
        self.receiptID = receiptID
        self.stage = stage
        self.status = status
    }
}

/// Where a receipt is on its way from upload to a committed expense.
public enum ProcessingStage: String, Sendable, Equatable, Codable, CaseIterable {
    /// Stored, its job waiting for a worker slot.
    case queued
    /// A worker is reading it.
    case processing
    /// Its expense is committed.
    case done
    /// Its job is dead (`pipeline show` says why; `pipeline retry` queues it again).
    case failed
}
