import Foundation
import PipelineCore

/// Latency percentiles of one stage (or end to end), in milliseconds.
public struct StageLatency: Sendable, Codable, Equatable {
    public var name: String
    public var count: Int
    public var p50: Double
    public var p95: Double
    public var p99: Double
    public var max: Double
    /// Cumulative counts at the histogram bounds of `StatsStore.bucketBoundsMilliseconds`.
    public var buckets: [Int]
    public var sumMilliseconds: Double
}

/// Aggregates for `pipeline stats` over a time window.
public struct PipelineStats: Sendable, Codable {
    public var since: Date?
    public var stages: [StageLatency] = []
    /// Claim → commit per receipt.
    public var claimToCommit: StageLatency?
    /// Ingest → commit per receipt (includes waiting in the queue).
    public var ingestToCommit: StageLatency?
    public var latencyTargetMilliseconds: Double = 0
    public var withinTarget = 0
    public var expenses = 0
    public var outcomes: [String: Int] = [:]
    public var statuses: [String: Int] = [:]
    /// Expenses by where their page text came from (`ocr`, `pdf-text`).
    public var pageSources: [String: Int] = [:]
    /// What decided the expenses' categories (`CategorySource`: rule, history, llm, trade, brand, model, items, unsure)
    /// → count; expenses committed before migration 0050 are not counted.
    public var categorySources: [String: Int] = [:]
    /// Expenses by the status the pipeline committed them with, before any person's accept or reject (counts
    /// that only grow as receipts are committed).
    public var committedStatuses: [String: Int] = [:]
    /// "stage: reason" → count, failed and retried attempts.
    public var failures: [String: Int] = [:]
    public var llmCalls = 0
    /// Failed LLM calls by reason (`VisionModelError.Code`): the calls of attempts that ended in that failure.
    public var llmFailedCalls: [String: Int] = [:]
    public var llmInputTokens = 0
    public var llmOutputTokens = 0
    public var llmCost: Decimal = 0
}

/// What the LLM's tokens cost, for the cost `pipeline stats` shows (`llm.inputPricePerMillion` and
/// `llm.outputPricePerMillion`).
public struct LLMPricing: Sendable, Equatable {
    public var inputPerMillion: Decimal
    public var outputPerMillion: Decimal

    public init(inputPerMillion: Decimal, outputPerMillion: Decimal) {
        self.inputPerMillion = inputPerMillion
        self.outputPerMillion = outputPerMillion
    }
}

/// Queue health, pipeline stats and the review loop's counters, read together (`pipeline stats`, `/metrics`).
public struct StatsSnapshot: Sendable {
    public var health: QueueHealth
    public var stats: PipelineStats
    /// What the review loop taught and how often it was used; nil before its migrations ran.
    public var learning: LearningCounters?
}

/// Reads the aggregates behind `pipeline stats` from `stage_timings`, `expenses` and `receipts`.
public enum StatsStore {
    /// Histogram bounds for the Prometheus exposition, in milliseconds.
    public static let bucketBoundsMilliseconds: [Double] = [
        50, 100, 250, 500, 1000, 1500, 2000, 3000, 5000, 10000, 30000,
    ]

    /// Everything `pipeline stats` shows: the queue's health, the stats since `since` (everything when nil), and
    /// the review loop's counters.
    /// - Parameter database: a command's connection, or the server's pool.
    public static func snapshot(
        since: Date?, latencyTarget: Duration, pricing: LLMPricing, from database: any PostgresSessions
    ) async throws -> StatsSnapshot {
        try await database.withConnection { connection in
            let health = try await connection.transaction { try PostgresWorkQueue.health(in: $0) }
            let stats = try await load(since: since, latencyTarget: latencyTarget, pricing: pricing, from: connection)
            let learning =
                try await PostgresReviewStore.isMigrated(connection)
                ? try await PostgresReviewStore(database: connection).learningCounters() : nil
            return StatsSnapshot(health: health, stats: stats, learning: learning)
        }
    }

    public static func load(
        since: Date?, latencyTarget: Duration, pricing: LLMPricing, from connection: PostgresConnection
    ) async throws -> PipelineStats {
        let start = since ?? Date(timeIntervalSince1970: 0)
        var stats = PipelineStats(since: since)
        stats.latencyTargetMilliseconds = latencyTarget.fractionalMilliseconds

        let stageRows = try await connection.query(
            summarySQL(
                source:
                    "SELECT stage AS name, duration_ms AS ms FROM stage_timings WHERE outcome = 'ok' AND started_at >= $1"
            ),
            [start])
        stats.stages = try stageRows.map(summary).sorted { stageOrder($0.name) < stageOrder($1.name) }

        let claim =
            "SELECT 'claim_to_commit' AS name, extract(epoch FROM committed_at - claimed_at) * 1000 AS ms "
            + "FROM expenses WHERE claimed_at IS NOT NULL AND committed_at >= $1"
        stats.claimToCommit = try await connection.query(summarySQL(source: claim), [start]).first.map(summary)
        let ingest =
            "SELECT 'ingest_to_commit' AS name, extract(epoch FROM e.committed_at - r.ingested_at) * 1000 AS ms "
            + "FROM expenses e JOIN receipts r ON r.id = e.receipt_id WHERE e.committed_at >= $1"
        stats.ingestToCommit = try await connection.query(summarySQL(source: ingest), [start]).first.map(summary)

        let totals = try await connection.query(
            """
            SELECT count(*) AS expenses,
                   count(*) FILTER (WHERE committed_at - claimed_at <= $2::double precision * interval '1 millisecond') AS within,
                   coalesce(sum(llm_calls), 0) AS calls, coalesce(sum(llm_input_tokens), 0) AS input,
                   coalesce(sum(llm_output_tokens), 0) AS output
            FROM expenses WHERE committed_at >= $1
            """, [start, stats.latencyTargetMilliseconds]
        ).first
        stats.expenses = try totals?.requiredInt("expenses") ?? 0
        stats.withinTarget = try totals?.requiredInt("within") ?? 0
        stats.llmCalls = try totals?.requiredInt("calls") ?? 0
        stats.llmInputTokens = try totals?.requiredInt("input") ?? 0
        stats.llmOutputTokens = try totals?.requiredInt("output") ?? 0
        stats.llmCost =
            (Decimal(stats.llmInputTokens) * pricing.inputPerMillion
                + Decimal(stats.llmOutputTokens) * pricing.outputPerMillion) / 1_000_000

        for (reason, failed) in try await LLMCallStore.failuresByReason(since: start, from: connection) {
            stats.llmFailedCalls[reason.rawValue] = failed.calls
        }

        for row in try await connection.query(
            "SELECT page_source, count(*) AS n FROM expenses WHERE committed_at >= $1 GROUP BY 1", [start])
        {
            stats.pageSources[try row.requiredString("page_source")] = try row.requiredInt("n")
        }

        for row in try await connection.query(
            """
            SELECT validation_outcome AS outcome, status,
                   coalesce((SELECT c.machine_value FROM corrections c
                             WHERE c.receipt_id = e.receipt_id AND c.field = 'status' ORDER BY c.id LIMIT 1),
                            status) AS committed_status,
                   count(*) AS n
            FROM expenses e WHERE committed_at >= $1
            GROUP BY 1, 2, 3
            """, [start])
        {
            let count = try row.requiredInt("n")
            stats.outcomes[try row.requiredString("outcome"), default: 0] += count
            stats.statuses[try row.requiredString("status"), default: 0] += count
            stats.committedStatuses[try row.requiredString("committed_status"), default: 0] += count
        }
        for row in try await connection.query(
            """
            SELECT category_source AS source, count(*) AS n FROM expenses
            WHERE committed_at >= $1 AND category_source IS NOT NULL GROUP BY 1
            """, [start])
        {
            stats.categorySources[try row.requiredString("source")] = try row.requiredInt("n")
        }
        for row in try await connection.query(
            """
            SELECT stage, outcome, left(coalesce(detail, ''), 160) AS reason, count(*) AS n FROM stage_timings
            WHERE outcome IN ('failed', 'retry') AND started_at >= $1 GROUP BY 1, 2, 3 ORDER BY n DESC LIMIT 20
            """, [start])
        {
            let key =
                "\(try row.requiredString("stage")) (\(try row.requiredString("outcome"))): \(try row.requiredString("reason"))"
            stats.failures[key] = try row.requiredInt("n")
        }
        return stats
    }

    /// Percentiles, max, sum and histogram buckets per `name` over a `(name, ms)` source query.
    private static func summarySQL(source: String) -> String {
        let buckets = bucketBoundsMilliseconds.map { "count(*) FILTER (WHERE ms <= \($0))" }.joined(separator: ", ")
        return """
            SELECT name, count(*) AS n,
                   percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50,
                   percentile_cont(0.95) WITHIN GROUP (ORDER BY ms) AS p95,
                   percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99,
                   max(ms) AS max, sum(ms) AS total, array[\(buckets)]::text AS buckets
            FROM (\(source)) AS samples GROUP BY name
            """
    }

    private static func summary(_ row: PostgresRow) throws -> StageLatency {
        let buckets = try row.requiredString("buckets").trimmingCharacters(in: CharacterSet(charactersIn: "{}"))
            .split(separator: ",").compactMap { Int($0) }
        // The percentiles, max and sum are NULL when every sample of the group is NULL (no duration recorded).
        return StageLatency(
            name: try row.requiredString("name"), count: try row.requiredInt("n"), p50: try row.double("p50") ?? 0,
            p95: try row.double("p95") ?? 0, p99: try row.double("p99") ?? 0, max: try row.double("max") ?? 0,
            buckets: buckets, sumMilliseconds: try row.double("total") ?? 0)
    }

    private static func stageOrder(_ name: String) -> Int {
        Stage.allCases.firstIndex { $0.rawValue == name } ?? Stage.allCases.count
    }
}
