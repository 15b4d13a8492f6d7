import PipelineCore

extension PostgresWorkQueue {
    /// Queue health for `pipeline stats`: counts by state, oldest due job's wait, leases past expiry, retried jobs,
    /// dead jobs by failing stage.
    public static func health(in connection: isolated PostgresConnection) throws(PostgresError) -> QueueHealth {
        var counts = Dictionary(uniqueKeysWithValues: JobState.allCases.map { ($0, 0) })
        for row in try connection.query("SELECT state, count(*) AS count FROM jobs GROUP BY state") {
            counts[try row.requiredValue("state", as: JobState.self)] = try row.requiredInt("count")
        }
        let ready = try connection.query(
            """
            SELECT count(*) FILTER (WHERE run_at > now()) AS scheduled,
                extract(epoch FROM now() - min(run_at) FILTER (WHERE run_at <= now())) AS oldest_seconds
            FROM jobs WHERE state = 'ready'
            """
        ).first
        let pastLease = try connection.query(
            "SELECT count(*) AS count FROM jobs WHERE state = 'running' AND lease_expires_at < now()"
        ).first
        let retried = try connection.query(
            "SELECT count(*) AS count FROM jobs WHERE state <> 'dead' AND jsonb_array_length(errors) > 0"
        ).first
        let dead = try connection.query(
            """
            SELECT errors -> -1 ->> 'stage' AS stage, count(*) AS count,
                (array_agg(last_error ORDER BY finished_at DESC NULLS LAST))[1] AS example
            FROM jobs WHERE state = 'dead' GROUP BY 1 ORDER BY 2 DESC, 1
            """)
        return QueueHealth(
            counts: counts,
            scheduled: try ready?.requiredInt("scheduled") ?? 0,
            oldestReadyAge: try ready?.double("oldest_seconds").map { Duration.seconds($0) },
            runningPastLease: try pastLease?.requiredInt("count") ?? 0,
            retried: try retried?.requiredInt("count") ?? 0,
            deadByReason: try dead.map { row throws(PostgresError) in
                QueueHealth.DeadReason(
                    stage: try row.value("stage", as: FailedStage.self), count: try row.requiredInt("count"),
                    example: try row.string("example") ?? "")
            })
    }
}
