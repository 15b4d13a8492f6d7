import Foundation

/// Where `ingest` (files, a watched folder, the upload page) stores what it found: each new image once, by its
/// hash, with its job.
public protocol IntakeStore: Sendable {
    /// The hashes among these that are stored already (what a dry run reports as duplicates).
    /// - Throws: `IntakeStoreUnreachable` when the store went away.
    func storedHashes(among hashes: [String]) async throws -> Set<String>

    /// Stores the receipts whose hash is new, each with a job of `maxAttempts` attempts, all or none; hashes stored
    /// already are left alone, so two ingests at once store each image once. An e-mail is stored once however many
    /// receipts it came with.
    /// - Returns: the new receipt id for each hash this call stored.
    /// - Throws: `IntakeStoreUnreachable` when the store went away (nothing of this call is stored, or all of it).
    func store(_ receipts: [NewReceipt], maxAttempts: Int) async throws -> [String: Int64]

    /// The id of the receipt stored with this hash (the whole file's, lowercase hex), or nil.
    func receiptID(sha256: String) async throws -> Int64?
}

/// The intake store could not be reached (the connection or the server went away). What earlier calls stored stays
/// stored; running the same ingest again skips it as a duplicate.
public struct IntakeStoreUnreachable: Error, CustomStringConvertible {
    public let cause: any Error

    public init(cause: any Error) {
        self.cause = cause
    }

    public var description: String { "\(cause)" }
}

/// An image about to be stored.
public struct NewReceipt: Sendable {
    /// Lowercase hex SHA-256 of the bytes: the receipt's identity.
    public let sha256: String
    public let originalName: String
    public let originalPath: String
    public let format: ImageFormat
    public let bytes: [UInt8]
    /// The e-mail it came with, if any.
    public let message: NewMessage?
    /// What ingest read of it (the scanned pages of a PDF it split), kept so that the worker does not read it again.
    public let keptPage: KeptPage?

    public init(
        sha256: String, originalName: String, originalPath: String, format: ImageFormat, bytes: [UInt8],
        message: NewMessage? = nil, keptPage: KeptPage? = nil
    ) {
        self.sha256 = sha256
        self.originalName = originalName
        self.originalPath = originalPath
        self.format = format
        self.bytes = bytes
        self.message = message
        self.keptPage = keptPage
    }
}

/// An e-mail receipts came with (attachments or its body), stored once per `key`.
public struct NewMessage: Sendable {
    /// The message's identity: its Message-ID, or `sha256:` and the digest of its bytes.
    public let key: String
    public let sender: String
    public let subject: String
    public let sentAt: Date?

    public init(key: String, sender: String, subject: String, sentAt: Date?) {
        self.key = key
        self.sender = sender
        self.subject = subject
        self.sentAt = sentAt
    }
}
