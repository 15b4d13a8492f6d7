import Foundation
import PipelineApp
import PipelineCore
import ReceiptBench

/// Percentiles and tables printed by `pipeline ocr-bench`.
enum OCRBenchReport {
    /// Nearest-rank percentile of durations, in milliseconds.
    static func percentile(_ values: [Duration], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))
        return sorted[rank].fractionalMilliseconds
    }

    /// One `stage  p50  p95  max` row.
    static func stageRow(_ name: String, _ values: [Duration]) -> String {
        pad(name, 12)
            + [0.5, 0.95, 1.0].map { pad(String(format: "%.0f", percentile(values, $0)), 9, right: true) }
            .joined()
    }

    /// Peak resident memory of this process (VmHWM) in MB, or nil off Linux.
    static func peakResidentMegabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "")
        else { return nil }
        return kilobytes / 1024
    }

    /// Whose CPU time `cpuTime(_:)` reads.
    enum CPUAccount {
        /// Every thread of this process.
        case ownThreads
        /// Child processes that have exited and been waited for.
        case finishedChildren
    }

    /// User + system CPU time used so far by `account` (`getrusage`).
    static func cpuTime(_ account: CPUAccount) -> Duration {
        var usage = rusage()
        _ = getrusage(account == .ownThreads ? RUSAGE_SELF.rawValue : RUSAGE_CHILDREN.rawValue, &usage)
        let microseconds = [usage.ru_utime, usage.ru_stime].map { Int64($0.tv_sec) * 1_000_000 + Int64($0.tv_usec) }
        return .microseconds(microseconds.reduce(0, +))
    }

    /// Resets the peak resident memory counter so the next run reports its own peak.
    static func resetPeakResident() {
        try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)
    }

    static func percent(_ count: Int, of total: Int) -> String {
        total == 0 ? "–" : String(format: "%.0f%%", 100 * Double(count) / Double(total))
    }

    static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}

/// How many fixtures of one dataset have their labeled fields present in the OCR text.
struct PresenceTally {
    var fixtures = 0
    var totals = (present: 0, labeled: 0)
    var dates = (present: 0, labeled: 0)
    var merchants = (present: 0, labeled: 0)
    var allPresent = 0

    mutating func add(_ presence: (total: Bool?, date: Bool?, merchant: Bool?)) {
        fixtures += 1
        for (value, keyPath) in [
            (presence.total, \PresenceTally.totals), (presence.date, \.dates), (presence.merchant, \.merchants),
        ] {
            guard let value else { continue }
            self[keyPath: keyPath].labeled += 1
            if value { self[keyPath: keyPath].present += 1 }
        }
        if [presence.total, presence.date, presence.merchant].allSatisfy({ $0 ?? true }) { allPresent += 1 }
    }

    /// Tallies per dataset (sorted by name) for a run's texts of the given fixtures; merchants count in the header
    /// pass's text too.
    static func byDataset(_ fixtures: [OCRBenchFixture], run: OCRBenchRun) -> [(String, PresenceTally)] {
        var tallies: [String: PresenceTally] = [:]
        for (index, (fixture, text)) in zip(fixtures, run.texts).enumerated() {
            tallies[fixture.dataset, default: PresenceTally()]
                .add(fixture.presence(in: text ?? "", headerText: run.headerText(at: index)))
        }
        return tallies.sorted { $0.key < $1.key }
    }
}
