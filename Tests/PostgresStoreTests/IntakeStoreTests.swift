import DatabaseTestSupport
import Foundation
import PipelineCore
import PostgresStore
import TestSupport
import Testing

/// The intake store's fake answers as the PostgreSQL store does: the same ingest history played on both (new
/// images, known ones, a hash twice in one batch, two receipts of one e-mail) reads back the same.
@Suite struct IntakeStoreTests {
    /// A receipt's hash: its one-letter name 64 times (`a` → `aaa…`).
    private static func hash(_ name: Character) -> String { String(repeating: name, count: 64) }

    /// Plays the history on a store and returns what every call answered, then what it holds. Receipt ids are read
    /// as the order they were given in (the database's sequence skips the ids of hashes it already held).
    /// - Parameter held: the stored receipts' jobs (hash, receipt id, attempts) and how many e-mails are stored.
    private func play(_ store: some IntakeStore, held: () async throws -> ([(String, Int64, Int)], Int)) async throws
        -> [String]
    {
        var ordinals: [Int64: Int] = [:]
        func ordinal(_ id: Int64) -> Int {
            if let known = ordinals[id] { return known }
            ordinals[id] = ordinals.count + 1
            return ordinals.count
        }
        let message = NewMessage(key: "<r1@shop.example>", sender: "shop@example.com", subject: "Receipt", sentAt: nil)
        func receipt(_ name: Character, _ message: NewMessage? = nil) -> NewReceipt {
            NewReceipt(
                sha256: Self.hash(name), originalName: "\(name).jpg", originalPath: "/inbox/\(name).jpg",
                format: .jpeg, bytes: Array("\(name)".utf8), message: message)
        }
        func names(_ hashes: some Sequence<String>) -> String { String(hashes.compactMap(\.first).sorted()) }
        func stored(_ receipts: [NewReceipt], maxAttempts: Int = 3) async throws -> [String] {
            try await store.store(receipts, maxAttempts: maxAttempts).sorted { $0.key < $1.key }
                .map { "\($0.key.prefix(1)) #\(ordinal($0.value))" }
        }
        var reads: [String] = []
        func read(_ label: String, _ value: Any) { reads.append("\(label): \(value)") }
        read("nothing stored", names(try await store.storedHashes(among: [Self.hash("a"), Self.hash("b")])))
        read("first batch", try await stored([receipt("a"), receipt("b"), receipt("a")]))
        read("second batch", try await stored([receipt("b"), receipt("c")], maxAttempts: 5))
        read("stored among", names(try await store.storedHashes(among: ["a", "c", "d"].map { Self.hash($0) })))
        read("e-mail", try await stored([receipt("d", message), receipt("e", message)]))
        read("e-mail again", try await stored([receipt("d", message), receipt("f")]))
        read("id of a", try await store.receiptID(sha256: Self.hash("a")).map(ordinal) as Any)
        read("id of c", try await store.receiptID(sha256: Self.hash("c")).map(ordinal) as Any)
        read("id of unknown", try await store.receiptID(sha256: Self.hash("0")) as Any)
        let (jobs, messages) = try await held()
        read("jobs", jobs.map { "\($0.0.prefix(1)) #\(ordinal($0.1)) \($0.2)" })
        read("messages", messages)
        return reads
    }

    @Test func theFakeAnswersAsPostgreSQLDoes() async throws {
        let fake = InMemoryIntakeStore()
        let fakeReads = try await play(fake) {
            (await fake.jobs.map { ($0.key, $0.receiptID, $0.maxAttempts) }, await fake.messageCount)
        }
        let realReads = try await TestDatabase.withMigratedDatabase { connection, _ in
            try await play(PostgresIntakeStore(database: connection)) {
                let jobs = try await connection.query("SELECT key, receipt_id, max_attempts FROM jobs ORDER BY id")
                let messages = try await connection.query("SELECT count(*) AS n FROM messages")
                return (
                    try jobs.map { job in
                        (
                            try job.string("key") ?? "", Int64(try job.int("receipt_id") ?? 0),
                            try job.int("max_attempts") ?? 0
                        )
                    },
                    try messages.first?.int("n") ?? 0
                )
            }
        }
        #expect(fakeReads == realReads)
        #expect(fakeReads.last == "messages: 1")
        #expect(
            fakeReads.contains(#"jobs: ["a #1 3", "b #2 3", "c #3 5", "d #4 3", "e #5 3", "f #6 3"]"#), "\(fakeReads)")
    }
}
