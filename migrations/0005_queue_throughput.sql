-- Work queue throughput (issue #3). Measured with scripts/bench-queue; see the README's queue benchmark section.

-- A job holds a lease exactly while it runs. Every transition out of `running` clears the lease, so statements
-- that settle a leased job find it by `id` and `lease_owner` alone: with a `state = 'running'` condition the
-- planner scanned the whole `jobs_running_lease` partial index (stale statistics call it tiny) instead of the
-- primary key, which made completions cost ~50 µs a job under load.
ALTER TABLE jobs ADD CONSTRAINT jobs_lease_while_running
    CHECK ((state = 'running') = (lease_owner IS NOT NULL AND lease_expires_at IS NOT NULL));

-- Keys are image hashes: byte order is all they need. With the database's linguistic collation, strcoll took ~10%
-- of the server time of a 1000-row enqueue (the unique index compares keys on every insert and non-HOT update).
ALTER TABLE jobs ALTER COLUMN key TYPE text COLLATE "C";

-- Enqueues a batch (parallel arrays) and notifies `channel` once when anything was inserted; returns how many.
-- Fast path: a plain INSERT. `ON CONFLICT DO NOTHING` costs ~30% more per row (a pre-check of the key index and
-- a speculative insertion per row), so it only runs when the plain INSERT met a key already queued (or one twice
-- in the batch); its work is then rolled back to the block's savepoint and the batch retried with it.
-- Each call opens one subtransaction: call it once per transaction with the whole batch, not once per job.
CREATE FUNCTION enqueue_jobs(keys text[], receipt_ids bigint[], kinds text[], priorities smallint[],
    max_attempts integer[], channel text) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    inserted integer;
BEGIN
    BEGIN
        INSERT INTO jobs (key, receipt_id, kind, priority, max_attempts)
        SELECT * FROM unnest(keys, receipt_ids, kinds, priorities, max_attempts);
        GET DIAGNOSTICS inserted = ROW_COUNT;
    EXCEPTION WHEN unique_violation THEN
        INSERT INTO jobs (key, receipt_id, kind, priority, max_attempts)
        SELECT * FROM unnest(keys, receipt_ids, kinds, priorities, max_attempts)
        ON CONFLICT (key) DO NOTHING;
        GET DIAGNOSTICS inserted = ROW_COUNT;
    END;
    IF inserted > 0 THEN
        PERFORM pg_notify(channel, '');
    END IF;
    RETURN inserted;
END $$;
