import PipelineCore

/// The queue's SQL, in one place. Every statement that changes a leased job checks the lease owner.
///
/// A leased job is found by `id = ANY(…) AND lease_owner = $2` alone, which reads the primary key: the
/// `jobs_lease_while_running` constraint makes a held lease imply `state = 'running'` (migration 0005).
enum QueueStatements {
    /// $1 limit, $2 owner, $3 lease interval, $4 configured attempt limit (NULL keeps the job's own). Reads the
    /// `jobs_ready` partial index in claim order.
    static let claim = """
        WITH picked AS (
            SELECT id FROM jobs
            WHERE state = 'ready' AND run_at <= now()
            ORDER BY priority, run_at, id
            LIMIT $1
            FOR UPDATE SKIP LOCKED
        )
        UPDATE jobs SET state = 'running', attempts = jobs.attempts + 1, lease_owner = $2,
            lease_expires_at = now() + $3::interval, started_at = now(),
            max_attempts = coalesce($4::integer, jobs.max_attempts)
        FROM picked WHERE jobs.id = picked.id
        RETURNING jobs.id, jobs.kind, jobs.key, jobs.receipt_id, jobs.priority, jobs.attempts, jobs.max_attempts
        """

    /// $1 ids, $2 owner, $3 lease interval.
    static let renew = """
        UPDATE jobs SET lease_expires_at = now() + $3::interval
        WHERE id = ANY($1::bigint[]) AND lease_owner = $2
        RETURNING id
        """

    /// $1 ids, $2 owner: locks the still-held jobs before the caller's writes run.
    static let lockHeld = """
        SELECT id FROM jobs WHERE id = ANY($1::bigint[]) AND lease_owner = $2 FOR UPDATE
        """

    /// $1 ids, $2 owner.
    static let complete = """
        UPDATE jobs SET state = 'done', finished_at = now(), lease_owner = NULL, lease_expires_at = NULL
        WHERE id = ANY($1::bigint[]) AND lease_owner = $2
        RETURNING id
        """

    /// $1 id, $2 owner, $3 new state (ready or dead), $4 retry delay interval, $5 stage, $6 message, $7 permanent.
    static let fail = """
        UPDATE jobs SET state = $3::text,
            run_at = CASE WHEN $3::text = 'ready' THEN now() + $4::interval ELSE run_at END,
            finished_at = CASE WHEN $3::text = 'dead' THEN now() END,
            lease_owner = NULL, lease_expires_at = NULL,
            last_error = $5::text || ': ' || $6::text,
            errors = errors || jsonb_build_array(jsonb_build_object(
                'attempt', attempts, 'at', now(), 'stage', $5::text, 'message', $6::text, 'permanent', $7::boolean))
        WHERE id = $1 AND lease_owner = $2
        RETURNING id
        """

    /// $1 ids, $2 owner: back to ready at once, the interrupted attempt not counted.
    static let release = """
        UPDATE jobs SET state = 'ready', run_at = now(), attempts = greatest(attempts - 1, 0),
            lease_owner = NULL, lease_expires_at = NULL, started_at = NULL
        WHERE id = ANY($1::bigint[]) AND lease_owner = $2
        RETURNING id
        """

    /// $1 configured attempt limit (NULL keeps each job's own). Expired leases back to ready (dead when out of
    /// attempts), a few hundred at a time; live leases untouched.
    static let rescue = """
        WITH expired AS (
            SELECT id FROM jobs
            WHERE state = 'running' AND lease_expires_at < now()
            ORDER BY lease_expires_at
            LIMIT 500
            FOR UPDATE SKIP LOCKED
        )
        UPDATE jobs SET
            state = CASE WHEN jobs.attempts >= coalesce($1::integer, jobs.max_attempts) THEN 'dead' ELSE 'ready' END,
            finished_at = CASE WHEN jobs.attempts >= coalesce($1::integer, jobs.max_attempts) THEN now() END,
            max_attempts = coalesce($1::integer, jobs.max_attempts),
            run_at = now(), lease_owner = NULL, lease_expires_at = NULL,
            last_error = \(leaseStage) || ': ' || \(rescueMessage),
            errors = jobs.errors || jsonb_build_array(jsonb_build_object(
                'attempt', jobs.attempts, 'at', now(), 'stage', \(leaseStage), 'message', \(rescueMessage),
                'permanent', false))
        FROM expired WHERE jobs.id = expired.id
        RETURNING jobs.id, jobs.state
        """

    /// The stage a rescued job's error names, as an SQL literal.
    private static let leaseStage = "'\(FailedStage.lease.rawValue)'"

    private static let rescueMessage =
        "'the worker holding the lease stopped renewing it (crashed, killed or stuck); the job was rescued'"

    /// $1 channel. An empty payload: the notification is only a wake-up hint.
    static let notify = "SELECT pg_notify($1, '')"

    static let pending = """
        SELECT EXISTS (SELECT 1 FROM jobs WHERE state = 'ready')
            OR EXISTS (SELECT 1 FROM jobs WHERE state = 'running') AS pending
        """

    /// Seconds until the earliest ready job is due (negative when one is overdue); NULL when none is ready.
    static let nextDue = """
        SELECT extract(epoch FROM min(run_at) - now())::float8 AS due_in FROM jobs WHERE state = 'ready'
        """

    /// $1 age interval, $2 batch size. Dead jobs stay (they await `pipeline retry`).
    static let deleteFinished = """
        DELETE FROM jobs WHERE id IN (
            SELECT id FROM jobs WHERE state = 'done' AND finished_at < now() - $1::interval
            ORDER BY finished_at LIMIT $2)
        """

    /// $1 keys, $2 receipt ids, $3 kinds, $4 priorities, $5 max attempts (parallel arrays), $6 channel.
    /// One round trip: `enqueue_jobs` (migration 0005) inserts, skipping keys already queued, and notifies once
    /// when anything was inserted.
    static let enqueue = """
        SELECT enqueue_jobs($1::text[], $2::bigint[], $3::text[], $4::smallint[], $5::integer[], $6) AS inserted
        """

    /// $1 ids, or NULL for every dead job. Attempts start over; the error history stays.
    static let requeueDead = """
        UPDATE jobs SET state = 'ready', run_at = now(), attempts = 0, finished_at = NULL, started_at = NULL
        WHERE state = 'dead' AND ($1::bigint[] IS NULL OR id = ANY($1::bigint[]))
        """
}
