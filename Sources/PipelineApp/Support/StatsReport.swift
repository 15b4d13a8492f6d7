import Foundation
import PipelineCore
import PostgresStore

/// Renders queue health and pipeline stats as text, JSON, or the Prometheus exposition format.
struct StatsReport {
    let health: QueueHealth
    let stats: PipelineStats
    /// What the review loop taught and how often it was used; nil before its migrations ran.
    var learning: LearningCounters? = nil

    func text() -> String {
        var lines: [String] = []
        let counts = JobState.allCases.map { "\($0.rawValue) \(health.counts[$0] ?? 0)" }.joined(separator: ", ")
        lines.append("queue: \(counts) (\(health.scheduled) scheduled for retry)")
        let oldest = health.oldestReadyAge.map { String(format: "%.1fs", $0.seconds) } ?? "none"
        lines.append(
            "  oldest ready job waiting: \(oldest); running past lease: \(health.runningPastLease); "
                + "retried: \(health.retried)")
        for reason in health.deadByReason {
            lines.append("  dead at \(reason.stage): \(reason.count) (latest: \(reason.example))")
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
                lines.append("  \(count) × \(reason)")
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
            deadByStage: Dictionary(health.deadByReason.map { ($0.stage, $0.count) }, uniquingKeysWith: +),
            stats: stats, learning: learning)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: (try? encoder.encode(document)) ?? Data(), as: UTF8.self)
    }

    func prometheus() -> String {
        var out = ""
        out += "# HELP pipeline_jobs Jobs in the queue by state.\n# TYPE pipeline_jobs gauge\n"
        for state in JobState.allCases {
            out += "pipeline_jobs{state=\"\(state.rawValue)\"} \(health.counts[state] ?? 0)\n"
        }
        out += "# HELP pipeline_jobs_running_past_lease Running jobs whose lease expired.\n"
        out +=
            "# TYPE pipeline_jobs_running_past_lease gauge\npipeline_jobs_running_past_lease \(health.runningPastLease)\n"
        out += "# HELP pipeline_stage_duration_seconds Duration of successful stage runs.\n"
        out += "# TYPE pipeline_stage_duration_seconds histogram\n"
        for summary in stats.stages {
            out += histogram("pipeline_stage_duration_seconds", label: "stage=\"\(summary.name)\"", summary)
        }
        if let claim = stats.claimToCommit {
            out += "# HELP pipeline_receipt_duration_seconds Claim to commit per receipt.\n"
            out += "# TYPE pipeline_receipt_duration_seconds histogram\n"
            out += histogram("pipeline_receipt_duration_seconds", label: nil, claim)
        }
        out += "# HELP pipeline_expenses Committed expenses by validation outcome.\n# TYPE pipeline_expenses gauge\n"
        for (outcome, count) in stats.outcomes.sorted(by: { $0.key < $1.key }) {
            out += "pipeline_expenses{outcome=\"\(outcome)\"} \(count)\n"
        }
        out += "# HELP pipeline_llm_tokens LLM tokens used.\n# TYPE pipeline_llm_tokens gauge\n"
        out += "pipeline_llm_tokens{direction=\"input\"} \(stats.llmInputTokens)\n"
        out += "pipeline_llm_tokens{direction=\"output\"} \(stats.llmOutputTokens)\n"
        out +=
            "# HELP pipeline_llm_calls LLM calls made.\n# TYPE pipeline_llm_calls gauge\npipeline_llm_calls \(stats.llmCalls)\n"
        return out
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
