import Foundation
import PipelineCore
import PostgresStore
import ReceiptBench
import ReceiptIntake

/// Renders queue health and pipeline stats as text, JSON, or the Prometheus exposition format.
struct StatsReport {
    let health: QueueHealth
    let stats: PipelineStats
    /// What the review loop taught and how often it was used; nil before its migrations ran.
    var learning: LearningCounters? = nil

    /// Reads the numbers from the database: everything, or what happened since `since`.
    static func load(since: Date?, configuration: PipelineConfiguration, from session: PostgresSession)
        async throws -> StatsReport
    {
        let snapshot = try await session.stats(
            since: since, latencyTarget: configuration.targets.latency, pricing: LLMPricing(configuration.llm))
        return StatsReport(health: snapshot.health, stats: snapshot.stats, learning: snapshot.learning)
    }

    func text() -> String {
        var lines: [String] = []
        let counts = JobState.allCases.map { "\($0.rawValue) \(health.counts[$0] ?? 0)" }.joined(separator: ", ")
        lines.append("queue: \(counts) (\(health.scheduled) scheduled for retry)")
        let oldest = health.oldestReadyAge.map { String(format: "%.1fs", $0.seconds) } ?? "none"
        lines.append(
            "  oldest ready job waiting: \(oldest); running past lease: \(health.runningPastLease); "
                + "retried: \(health.retried)")
        for reason in health.deadByReason {
            lines.append(
                "  dead at \(reason.stage?.rawValue ?? "an unknown stage"): \(reason.count) (latest: \(reason.example))"
            )
        }
        lines.append("")
        lines.append(
            pad("stage", 18) + pad("count", 8) + pad("p50 ms", 10) + pad("p95 ms", 10) + pad("p99 ms", 10) + "max ms")
        for summary in stats.stages + [stats.claimToCommit, stats.ingestToCommit].compactMap({ $0 }) {
            lines.append(
                pad(summary.name, 18) + pad("\(summary.count)", 8) + pad(format(summary.p50), 10)
                    + pad(format(summary.p95), 10) + pad(format(summary.p99), 10) + format(summary.max))
        }
        lines.append("")
        let share = stats.expenses > 0 ? Double(stats.withinTarget) / Double(stats.expenses) * 100 : 0
        lines.append(
            String(
                format: "receipts within the %.1f s target (claim → commit): %d of %d (%.1f%%)",
                stats.latencyTargetMilliseconds / 1000, stats.withinTarget, stats.expenses, share))
        lines.append("validation: " + describe(stats.outcomes) + "; status: " + describe(stats.statuses))
        lines.append("page text: " + describe(stats.pageSources))
        if !stats.categorySources.isEmpty {
            lines.append("categories decided by: " + describe(stats.categorySources))
        }
        if stats.failures.isEmpty {
            lines.append("failures: none")
        } else {
            lines.append("failures (attempts):")
            for (reason, count) in stats.failures.sorted(by: { $0.value > $1.value }) {
                // PostgreSQL's messages span lines (DETAIL, HINT): one failure, one line.
                let oneLine = reason.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                lines.append("  \(count) × \(oneLine.escapingControlCharacters)")
            }
        }
        lines.append(
            "LLM: \(stats.llmCalls) calls, \(stats.llmInputTokens) tokens in, \(stats.llmOutputTokens) out, "
                + "cost \(stats.llmCost)")
        if !stats.llmFailedCalls.isEmpty {
            lines.append("LLM failed calls: " + describe(stats.llmFailedCalls))
        }
        if let learning {
            lines.append(
                "review: \(learning.corrections) corrections; "
                    + "\(learning.merchantAliases) merchant names learned, used on \(learning.merchantAliasUses) later "
                    + "receipts; \(learning.learnedRules) category rules learned, matching "
                    + "\(learning.learnedRuleMatches) later receipts")
        }
        return lines.joined(separator: "\n")
    }

    func json() -> String {
        struct Document: Encodable {
            let queue: [String: Int]
            let scheduled: Int
            let oldestReadySeconds: Double?
            let runningPastLease: Int
            let retried: Int
            let deadByStage: [String: Int]
            let stats: PipelineStats
            let learning: LearningCounters?
        }
        let document = Document(
            queue: Dictionary(uniqueKeysWithValues: JobState.allCases.map { ($0.rawValue, health.counts[$0] ?? 0) }),
            scheduled: health.scheduled, oldestReadySeconds: health.oldestReadyAge.map(\.seconds),
            runningPastLease: health.runningPastLease, retried: health.retried,
            deadByStage: Dictionary(
                health.deadByReason.map { ($0.stage?.rawValue ?? "unknown", $0.count) }, uniquingKeysWith: +),
            stats: stats, learning: learning)
        return (try? JSONOutput.text(document)) ?? ""
    }

    /// The Prometheus text exposition (format 0.0.4), named by Prometheus convention: the `pipeline_` prefix, base
    /// units (seconds), `_total` on counters. Counters are counts of committed rows, so they only grow unless
    /// receipts are deleted. `stats --prometheus` and `serve`'s `/metrics` both print this.
    func prometheus() -> String {
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        func sample(_ name: String, _ labels: [(String, String)], _ value: some CustomStringConvertible) {
            let text = labels.map { "\($0.0)=\"\(Self.escapeLabel($0.1))\"" }.joined(separator: ",")
            out += name + (labels.isEmpty ? "" : "{\(text)}") + " \(value)\n"
        }
        family("pipeline_jobs", "gauge", "Jobs in the queue by state.")
        for state in JobState.allCases {
            sample("pipeline_jobs", [("state", state.rawValue)], health.counts[state] ?? 0)
        }
        family("pipeline_jobs_running_past_lease", "gauge", "Running jobs whose lease expired.")
        sample("pipeline_jobs_running_past_lease", [], health.runningPastLease)
        family("pipeline_stage_duration_seconds", "histogram", "Duration of successful stage runs.")
        for summary in stats.stages {
            out += histogram("pipeline_stage_duration_seconds", label: "stage=\"\(summary.name)\"", summary)
        }
        if let claim = stats.claimToCommit {
            family("pipeline_receipt_duration_seconds", "histogram", "Claim to commit per receipt.")
            out += histogram("pipeline_receipt_duration_seconds", label: nil, claim)
        }
        family(
            "pipeline_receipts_committed_total", "counter",
            "Receipts committed as expenses, by the status the pipeline gave them.")
        for status in ExpenseStatus.allCases where status != .rejected {
            sample(
                "pipeline_receipts_committed_total", [("status", status.rawValue)],
                stats.committedStatuses[status.rawValue] ?? 0)
        }
        family("pipeline_expenses", "gauge", "Expenses by current status (after review).")
        for status in ExpenseStatus.allCases {
            sample("pipeline_expenses", [("status", status.rawValue)], stats.statuses[status.rawValue] ?? 0)
        }
        family("pipeline_expenses_by_outcome", "gauge", "Expenses by validation outcome.")
        for (outcome, count) in stats.outcomes.sorted(by: { $0.key < $1.key }) {
            sample("pipeline_expenses_by_outcome", [("outcome", outcome)], count)
        }
        family("pipeline_llm_tokens_total", "counter", "LLM tokens used by committed receipts.")
        sample("pipeline_llm_tokens_total", [("direction", "input")], stats.llmInputTokens)
        sample("pipeline_llm_tokens_total", [("direction", "output")], stats.llmOutputTokens)
        family("pipeline_llm_calls_total", "counter", "LLM calls made for committed receipts.")
        sample("pipeline_llm_calls_total", [], stats.llmCalls)
        family("pipeline_llm_failed_calls_total", "counter", "LLM calls that failed, by reason.")
        for (reason, count) in stats.llmFailedCalls.sorted(by: { $0.key < $1.key }) {
            sample("pipeline_llm_failed_calls_total", [("reason", reason)], count)
        }
        return out
    }

    /// Escapes a label value for the text exposition: backslash, double quote and newline.
    static func escapeLabel(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    private func histogram(_ name: String, label: String?, _ summary: StageLatency) -> String {
        var out = ""
        let prefix = label.map { "\($0)," } ?? ""
        for (bound, count) in zip(StatsStore.bucketBoundsMilliseconds, summary.buckets) {
            out += "\(name)_bucket{\(prefix)le=\"\(bound / 1000)\"} \(count)\n"
        }
        out += "\(name)_bucket{\(prefix)le=\"+Inf\"} \(summary.count)\n"
        let braces = label.map { "{\($0)}" } ?? ""
        out += "\(name)_sum\(braces) \(summary.sumMilliseconds / 1000)\n"
        out += "\(name)_count\(braces) \(summary.count)\n"
        return out
    }

    private func describe(_ counts: [String: Int]) -> String {
        counts.isEmpty
            ? "none" : counts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }

    private func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    private func format(_ milliseconds: Double) -> String { String(format: "%.0f", milliseconds) }

}
