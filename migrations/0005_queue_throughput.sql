-- Work queue throughput (issue #3). Measured with scripts/bench-queue; see the README's queue benchmark section.

-- A job holds a lease exactly while it runs. Every transition out of `running` clears the lease, so statements
-- that settle a leased job find it by `id` and `lease_owner` alone: with a `state = 'running'` condition the
-- planner scanned the whole `jobs_running_lease` partial index (stale statistics call it tiny) instead of the
-- primary key, which made completions cost ~50 µs a job under load.
ALTER TABLE jobs ADD CONSTRAINT jobs_lease_while_running
    CHECK ((state = 'running') = (lease_owner IS NOT NULL AND lease_expires_at IS NOT NULL));
