import Foundation
import PipelineCore
import ReceiptImage
import ReceiptIntake

/// What one `pipeline ingest` run did, for the summary and `--json`.
struct IngestSummary: Sendable, Codable {
    var new: [String] = []
    var duplicates: [String] = []
    var rejected: [Rejection] = []
    var stillBeingWritten: [String] = []
    var skippedHiddenOrTemporary = 0
    /// How each PDF of several pages was split: "batch.pdf: 3 receipts from 3 pages".
    var splits: [String] = []

    struct Rejection: Error, Sendable, Codable, Equatable {
        let file: String
        let reason: String
    }
}

/// The store went away mid-ingest: what the batches committed before the loss stored, and why it stopped.
/// The batch in flight was rolled back (or, if the loss came during its commit, may be stored: running the same
/// ingest again skips whatever is already stored).
struct IngestInterruption: Error {
    let storedBeforeTheLoss: IngestSummary
    let cause: any Error
}

/// Reads scanned files, checks them, and stores new images with their jobs, one transaction per batch.
///
/// Never modifies, moves or deletes the user's files. Format by magic bytes, byte limit, SHA-256; within a batch
/// and across runs (and concurrent ingests) each image is stored once because receipts are keyed by hash.
struct Ingester {
    let configuration: PipelineConfiguration
    /// Reads a PDF's pages to split it by what they hold (`ingest.pdfPages: content`).
    let pages: IngestPageReader
    /// Reports progress after each file: (files done, files total, files rejected so far).
    var progress: (@Sendable (Int, Int, Int) -> Void)?

    /// A file read and checked, ready to store.
    private struct Checked {
        let receipt: NewReceipt
        let display: String
        /// For the first receipt of a PDF of several pages: how the file was split.
        var split: String?
    }

    /// Ingests scanned files; a dry run reads the store to tell new from duplicate but writes nothing.
    /// - Throws: `IngestInterruption` with what was stored when the store goes away mid-run.
    func ingest(_ scan: ScanResult, into store: any IntakeStore, dryRun: Bool) async throws -> IngestSummary {
        var summary = IngestSummary()
        summary.rejected = scan.rejections.map { .init(file: $0.path, reason: $0.reason) }
        summary.stillBeingWritten = scan.stillBeingWritten
        summary.skippedHiddenOrTemporary = scan.skippedNames
        do {
            try await ingest(scan.files, into: store, dryRun: dryRun, &summary)
        } catch let error as IntakeStoreUnreachable {
            throw IngestInterruption(storedBeforeTheLoss: summary, cause: error.cause)
        }
        return summary
    }

    private func ingest(
        _ files: [ScannedFile], into intakeStore: any IntakeStore, dryRun: Bool, _ summary: inout IngestSummary
    ) async throws {
        var batch: [Checked] = []
        var seenInRun: [String: String] = [:]
        for (index, file) in files.enumerated() {
            switch await check(file) {
            case .failure(let rejection) where rejection.reason == FileScanner.changedWhileReading:
                summary.stillBeingWritten.append(rejection.file)
            case .failure(let rejection):
                summary.rejected.append(rejection)
            case .success(let receipts):
                for checked in receipts {
                    if let split = checked.split { summary.splits.append(split) }
                    if let first = seenInRun[checked.receipt.sha256] {
                        summary.duplicates.append("\(checked.display) (same image as \(first))")
                    } else {
                        seenInRun[checked.receipt.sha256] = checked.display
                        batch.append(checked)
                    }
                }
            }
            if batch.count >= configuration.ingest.batchSize {
                try await store(batch, intakeStore, dryRun: dryRun, &summary)
                batch.removeAll()
            }
            progress?(index + 1, files.count, summary.rejected.count)
        }
        try await store(batch, intakeStore, dryRun: dryRun, &summary)
    }

    private func store(
        _ batch: [Checked], _ intakeStore: any IntakeStore, dryRun: Bool, _ summary: inout IngestSummary
    ) async throws {
        guard !batch.isEmpty else { return }
        let inserted = try await insert(batch.map(\.receipt), intakeStore, dryRun: dryRun)
        for checked in batch {
            if inserted[checked.receipt.sha256] != nil {
                summary.new.append(checked.display)
            } else {
                summary.duplicates.append("\(checked.display) (already stored)")
            }
        }
    }

    /// Stores the receipts whose hash is new, each with its job, in one transaction (a dry run only looks).
    /// - Returns: the new receipt id per hash stored (0 in a dry run).
    private func insert(_ receipts: [NewReceipt], _ store: any IntakeStore, dryRun: Bool) async throws
        -> [String: Int64]
    {
        guard dryRun else { return try await store.store(receipts, maxAttempts: configuration.queue.maxAttempts) }
        let known = try await store.storedHashes(among: receipts.map(\.sha256))
        return Dictionary(uniqueKeysWithValues: receipts.filter { !known.contains($0.sha256) }.map { ($0.sha256, 0) })
    }

    /// Ingests one file sent to the upload page: the same limit, checks and dedupe as a file on disk. A file that
    /// holds several receipts (a PDF split into receipts, an e-mail) stores them all and answers for the first.
    /// - Returns: the receipt it was stored as (or stored before as), or why it was refused.
    func ingestUpload(name: String, bytes: [UInt8], into store: any IntakeStore) async throws
        -> UploadResult
    {
        let display = "upload:" + name
        if let problem = sizeProblem(bytes.count) { return .rejected(reason: "\(display): \(problem)") }
        switch await check(bytes, name: name, display: display) {
        case .failure(let rejection):
            return .rejected(reason: "\(rejection.file): \(rejection.reason)")
        case .success(let checked):
            guard let first = checked.first?.receipt else {
                return .rejected(reason: "\(display): holds no receipt")
            }
            if let id = try await insert(checked.map(\.receipt), store, dryRun: false)[first.sha256] {
                return .stored(receiptID: id)
            }
            guard let id = try await store.receiptID(sha256: first.sha256) else {
                // Stored and deleted between the insert and the look-up: the next upload stores it again.
                return .rejected(reason: "\(display): was removed while being stored; upload it again")
            }
            return .duplicate(receiptID: id)
        }
    }

    /// Why a file of this many bytes is refused, or nil.
    private func sizeProblem(_ byteCount: Int) -> String? {
        guard byteCount > configuration.ingest.maxBytes else { return nil }
        return "\(byteCount) bytes is over the limit of \(configuration.ingest.maxBytes) (ingest.maxBytes)"
    }

    /// The receipts a file holds: one, or for a PDF of several pages one per group of its pages (`receipts`).
    private func check(_ file: ScannedFile) async -> Result<[Checked], IngestSummary.Rejection> {
        let display = file.path.description
        func reject(_ reason: String) -> Result<[Checked], IngestSummary.Rejection> {
            .failure(.init(file: display, reason: reason))
        }
        if let problem = sizeProblem(file.byteCount) { return reject(problem) }
        let bytes: [UInt8]
        do {
            bytes = try FileScanner.contents(of: file)
        } catch {
            return reject(error.reason)
        }
        return await check(bytes, name: file.path.name.description, display: display)
    }

    /// The receipts in bytes already read: the format by magic bytes, an e-mail's attachments or body, the allowed
    /// formats, and a PDF's pages.
    private func check(_ bytes: [UInt8], name: String, display: String) async
        -> Result<[Checked], IngestSummary.Rejection>
    {
        func reject(_ reason: String) -> Result<[Checked], IngestSummary.Rejection> {
            .failure(.init(file: display, reason: reason))
        }
        let format: ImageFormat
        switch detectImageFormat(leadingBytes: bytes.prefix(imageSignatureLength)) {
        case .supported(let detected): format = detected
        case .unknown where EmailMessage.looksLikeEmail(bytes):
            return await emailReceipts(bytes, name: name, display: display)
        case .unknown:
            let error =
                bytes.isEmpty
                ? ImageError.empty(file: display)
                : ImageError.unrecognizedFormat(file: display, leadingBytes: bytes)
            return reject(reason(error))
        }
        guard configuration.ingest.formats.contains(format) else {
            return reject(reason(ImageError.disallowedFormat(file: display, format: format)))
        }
        do {
            return .success(try await receipts(bytes, format: format, name: name, display: display))
        } catch {
            return reject(reason(error))
        }
    }

    /// The receipts of one file or attachment: itself, or for a PDF of several pages one per group of pages
    /// (`ingest.pdfPages`: by what the pages hold, each page, or the whole file), each with what ingest read of its
    /// pages by OCR to split the file (`IngestPageReader.keptPage`). A PDF is opened here, so an encrypted, damaged
    /// or oversized one is named now instead of failing later.
    /// - Throws: `ImageError`, or what reading a page to split the file threw.
    private func receipts(
        _ bytes: [UInt8], format: ImageFormat, name: String, display: String, message: NewMessage? = nil
    ) async throws -> [Checked] {
        let hash = sha256Hex(bytes)
        func receipt(_ bytes: [UInt8], sha256: String, suffix: String = "", keptPage: KeptPage? = nil) -> NewReceipt {
            NewReceipt(
                sha256: sha256, originalName: name + suffix, originalPath: display + suffix, format: format,
                bytes: bytes, message: message, keptPage: keptPage)
        }
        guard format == .pdf else { return [Checked(receipt: receipt(bytes, sha256: hash), display: display)] }
        let options = ImageProcessingOptions(configuration)
        let pageCount = try PDFPages.check(Data(bytes), file: display, options: options)
        let ranges: [ClosedRange<Int>]
        let read: [IngestPageReader.ReadPage]
        switch configuration.ingest.pdfPages {
        case .file: (ranges, read) = ([0...(pageCount - 1)], [])
        case .perPage: (ranges, read) = ((0..<pageCount).map { $0...$0 }, [])
        case .content where pageCount == 1: (ranges, read) = ([0...0], [])
        case .content:
            read = try await pages.read(Data(bytes), pageCount: pageCount, file: display)
            ranges = ReceiptPageGrouping.receipts(read.map(\.content))
        }
        /// What ingest read of the pages of `range`, copied out as `document`.
        func kept(_ range: ClosedRange<Int>, document: Data, file: String) async throws -> KeptPage? {
            read.isEmpty ? nil : try await pages.keptPage(of: read[range], document: document, file: file)
        }
        let split =
            pageCount == 1
            ? nil : "\(display): \(ranges.count) receipt\(ranges.count == 1 ? "" : "s") from \(pageCount) pages"
        guard ranges.count > 1 else {
            let keptPage = try await kept(0...(pageCount - 1), document: Data(bytes), file: display)
            return [Checked(receipt: receipt(bytes, sha256: hash, keptPage: keptPage), display: display, split: split)]
        }
        let documents = try PDFPages.split(Data(bytes), into: ranges, file: display, options: options)
        var checked: [Checked] = []
        for (position, (range, document)) in zip(ranges, documents).enumerated() {
            // Keyed by the original file's hash and its pages: the same file ingested again is a duplicate group
            // by group.
            let suffix =
                range.count == 1
                ? "#page=\(range.lowerBound + 1)" : "#pages=\(range.lowerBound + 1)-\(range.upperBound + 1)"
            let keptPage = try await kept(range, document: document, file: display + suffix)
            checked.append(
                Checked(
                    receipt: receipt(
                        [UInt8](document), sha256: sha256Hex(Array((hash + suffix).utf8)), suffix: suffix,
                        keptPage: keptPage),
                    display: display + suffix, split: position == 0 ? split : nil))
        }
        return checked
    }

    /// An e-mail's receipts: each image or PDF attachment the configuration accepts, else its body when it reads like
    /// a receipt (written as a one-page text PDF, so it takes the born-digital PDF path). All linked to the message,
    /// which is stored once however often it is ingested.
    private func emailReceipts(_ bytes: [UInt8], name: String, display: String) async
        -> Result<[Checked], IngestSummary.Rejection>
    {
        let email = EmailMessage(parsing: bytes)
        let message = NewMessage(
            key: email.messageID ?? "sha256:" + sha256Hex(bytes), sender: email.sender, subject: email.subject,
            sentAt: email.sentAt)
        var found: [Checked] = []
        var problems: [String] = []
        for attachment in email.attachments where configuration.ingest.formats.contains(attachment.format) {
            let attachmentDisplay = "\(display)#\(attachment.fileName)"
            do {
                found += try await receipts(
                    attachment.bytes, format: attachment.format, name: attachment.fileName, display: attachmentDisplay,
                    message: message)
            } catch {
                problems.append("\(attachment.fileName): \(reason(error))")
            }
        }
        if found.isEmpty && problems.isEmpty && email.bodyLooksLikeReceipt {
            let pdf = PDFWriter.document([PDFWriter.textPage(email.bodyLines)])
            let receipt = NewReceipt(
                sha256: sha256Hex(Array((message.key + "#body").utf8)), originalName: name + "#body",
                originalPath: display + "#body", format: .pdf, bytes: pdf, message: message)
            found.append(Checked(receipt: receipt, display: display + "#body"))
        }
        if !problems.isEmpty && found.isEmpty {
            return .failure(.init(file: display, reason: problems.joined(separator: "; ")))
        }
        guard !found.isEmpty else {
            return .failure(
                .init(
                    file: display,
                    reason:
                        "an e-mail with no image or PDF attachment and no receipt in its body (no line with a total "
                        + "and an amount); forward the receipt as an attachment or save it as PDF"))
        }
        return .success(found)
    }

    /// Why a file is refused, in one line: an `ImageError`'s problem and remedy, else the error's own words.
    private func reason(_ error: any Error) -> String {
        guard let error = error as? ImageError else { return "\(error)" }
        return "\(error.problem); \(error.remedy)"
    }
}
