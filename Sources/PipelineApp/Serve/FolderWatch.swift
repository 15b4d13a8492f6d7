import Foundation
import PipelineCore
import PostgresStore
import ReceiptIntake

/// `pipeline serve --watch DIR`: ingests a folder as files settle, with the same scanner and ingest code as
/// `pipeline ingest` (never modifying, moving or deleting a file). Each pass skips files it already took unchanged.
struct FolderWatch {
    let context: CommandContext
    /// The served database: each pass opens a session of its own on it.
    let database: PostgresDatabase
    let folder: String
    /// Reads the pages of PDFs to split them (shared with the upload page).
    let pages: IngestPageReader

    /// Scans every `ingest.settleTime` (at least once a second) until the task is cancelled.
    func run() async {
        let configuration = context.configuration
        let interval = max(configuration.ingest.settleTime, .seconds(1))
        var taken = Set<String>()
        var reported = Set<String>()
        while !Task.isCancelled {
            let scan = await scanOffThePool()
            var fresh = scan
            fresh.files = scan.files.filter { !taken.contains(Self.key($0)) }
            fresh.rejections = scan.rejections.filter { !reported.contains($0.path) }
            fresh.stillBeingWritten = []
            if !fresh.files.isEmpty || !fresh.rejections.isEmpty {
                do {
                    let ingester = Ingester(configuration: configuration, pages: pages)
                    let summary = try await context.withSession(label: "serve-watch", on: database) { session in
                        try await ingester.ingest(fresh, into: session.intakeStore, dryRun: false)
                    }
                    let waiting = Set(summary.stillBeingWritten)
                    for file in fresh.files where !waiting.contains(file.path.description) {
                        taken.insert(Self.key(file))
                    }
                    for rejection in summary.rejected { reported.insert(rejection.file) }
                    report(summary)
                } catch {
                    // The files stay untaken: the next pass tries them again.
                    printError("watch: \(folder): not ingested this time: \(error)")
                }
            }
            try? await Task.sleep(for: interval)
        }
    }

    /// The scan waits out the settle time with blocking calls: run it on a dispatch thread, not the task pool.
    private func scanOffThePool() async -> ScanResult {
        let scanner = FileScanner(settleTime: context.configuration.ingest.settleTime)
        let path = RawPath(folder)
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: scanner.scan([path])) }
        }
    }

    private func report(_ summary: IngestSummary) {
        if !summary.new.isEmpty || !summary.duplicates.isEmpty {
            print("watch: stored \(summary.new.count) new, \(summary.duplicates.count) duplicate from \(folder)")
        }
        for split in summary.splits { print("watch: split \(split)") }
        for rejection in summary.rejected { printError("watch: rejected: \(rejection.file): \(rejection.reason)") }
    }

    /// A file as it was when taken: path, size and modification time (a changed file is taken again).
    private static func key(_ file: ScannedFile) -> String {
        "\(file.path.description)\u{0}\(file.byteCount)\u{0}\(file.modified)"
    }
}
