import Foundation

/// A one-line progress display on a terminal (done of total, rate, time left, failures so far), redrawn in place on
/// stderr; silent otherwise. `ingest` and `work --drain` both draw theirs with it.
final class ProgressLine: @unchecked Sendable {
    // @unchecked Sendable: every mutable field is guarded by `lock`.
    private let label: String
    private let isEnabled: Bool
    private let started = Date()
    private let lock = NSLock()
    private var lastDrawn = Date.distantPast
    private var drewSomething = false

    init(label: String, isEnabled: Bool) {
        self.label = label
        self.isEnabled = isEnabled
    }

    /// Reports `done` of `total` and, when there were any, the failures so far; redraws at most ten times a second.
    func update(_ done: Int, _ total: Int, failures: Int) {
        guard isEnabled else { return }
        lock.withLock {
            let now = Date()
            guard now.timeIntervalSince(lastDrawn) >= 0.1 || done == total else { return }
            lastDrawn = now
            drewSomething = true
            let elapsed = max(now.timeIntervalSince(started), 0.001)
            let rate = Double(done) / elapsed
            let remaining = rate > 0 ? Double(total - done) / rate : 0
            let failed = failures > 0 ? "  \(failures) failed" : ""
            let line = String(
                format: "\r%@ %d/%d  %.1f/s  ETA %.0fs%@   ", label, done, total, rate, remaining, failed)
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// Ends the line so later output starts on a fresh one.
    func finish() {
        guard isEnabled else { return }
        lock.withLock { if drewSomething { FileHandle.standardError.write(Data("\n".utf8)) } }
    }
}
