-- Receipt pipeline schema (docs/architecture.md). Money is numeric, never floating point. Migrations run inside a
-- transaction opened by `pipeline migrate`: no BEGIN/COMMIT here.

-- Every ingested image, content-addressed by its SHA-256.
CREATE TABLE receipts (
    id             bigserial PRIMARY KEY,
    sha256         text        NOT NULL UNIQUE CHECK (sha256 ~ '^[0-9a-f]{64}$'),
    original_name  text        NOT NULL,
    original_path  text        NOT NULL,
    format         text        NOT NULL,
    byte_count     integer     NOT NULL CHECK (byte_count > 0),
    width          integer,
    height         integer,
    image          bytea       NOT NULL,
    ingested_at    timestamptz NOT NULL DEFAULT now()
);
-- Images are already compressed: store them out of line without trying pglz on them.
ALTER TABLE receipts ALTER COLUMN image SET STORAGE EXTERNAL;

-- The work queue (docs/architecture.md, "Work queue"). `ready` covers scheduled retries too (run_at in the future).
CREATE TABLE jobs (
    id                bigserial   PRIMARY KEY,
    kind              text        NOT NULL DEFAULT 'receipt',
    -- Idempotency key (the image hash for receipts): enqueueing it twice makes one job.
    key               text        UNIQUE,
    receipt_id        bigint      REFERENCES receipts (id) ON DELETE CASCADE,
    priority          smallint    NOT NULL DEFAULT 0,
    state             text        NOT NULL DEFAULT 'ready' CHECK (state IN ('ready', 'running', 'done', 'dead')),
    attempts          integer     NOT NULL DEFAULT 0,
    max_attempts      integer     NOT NULL DEFAULT 5 CHECK (max_attempts > 0),
    run_at            timestamptz NOT NULL DEFAULT now(),
    lease_owner       uuid,
    lease_expires_at  timestamptz,
    last_error        text,
    -- One object per failed attempt: {"attempt", "at", "stage", "message", "permanent"}.
    errors            jsonb       NOT NULL DEFAULT '[]',
    created_at        timestamptz NOT NULL DEFAULT now(),
    started_at        timestamptz,
    finished_at       timestamptz
) WITH (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.01, autovacuum_analyze_scale_factor = 0.02);

-- The claim query reads only this small partial index: ready rows in claim order.
CREATE INDEX jobs_ready ON jobs (priority, run_at, id) WHERE state = 'ready';
-- Rescue of expired leases.
CREATE INDEX jobs_running_lease ON jobs (lease_expires_at) WHERE state = 'running';
-- Retention cleanup of finished rows.
CREATE INDEX jobs_finished ON jobs (finished_at) WHERE state = 'done';
CREATE INDEX jobs_receipt ON jobs (receipt_id);

-- One expense per receipt, committed with its items in the same transaction as the job's completion.
CREATE TABLE expenses (
    id                     bigserial   PRIMARY KEY,
    receipt_id             bigint      NOT NULL UNIQUE REFERENCES receipts (id) ON DELETE CASCADE,
    merchant               text,
    expense_date           date,
    date_is_ambiguous      boolean     NOT NULL DEFAULT false,
    currency               text,
    -- numeric(14,3): three-decimal currencies (KWD, BHD, OMR, TND) occur on real receipts.
    subtotal               numeric(14, 3),
    tax                    numeric(14, 3),
    tip                    numeric(14, 3),
    fees                   numeric(14, 3),
    discounts              numeric(14, 3),
    total                  numeric(14, 3),
    category               text        NOT NULL DEFAULT 'Other',
    payment_method         text,
    confidence             numeric(4, 3),
    status                 text        NOT NULL CHECK (status IN ('accepted', 'needs_review')),
    validation_outcome     text        NOT NULL CHECK (validation_outcome IN ('balanced', 'repaired', 'unbalanced', 'incomplete')),
    -- Human-readable findings of reconciliation and the hallucination guard.
    findings               jsonb       NOT NULL DEFAULT '[]',
    -- Per field: {"confidence", "lines"}: where in the OCR text each value came from.
    field_sources          jsonb       NOT NULL DEFAULT '{}',
    extraction_source      text        NOT NULL DEFAULT 'rules' CHECK (extraction_source IN ('rules', 'llm', 'merged')),
    ocr_text               text,
    ocr_confidence         numeric(5, 2),
    llm_model              text,
    llm_calls              integer     NOT NULL DEFAULT 0,
    llm_input_tokens       integer     NOT NULL DEFAULT 0,
    llm_output_tokens      integer     NOT NULL DEFAULT 0,
    possible_duplicate_of  bigint      REFERENCES expenses (id) ON DELETE SET NULL,
    claimed_at             timestamptz,
    committed_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX expenses_duplicate_key ON expenses (merchant, expense_date, total);
CREATE INDEX expenses_committed ON expenses (committed_at);

CREATE TABLE expense_items (
    id           bigserial PRIMARY KEY,
    expense_id   bigint    NOT NULL REFERENCES expenses (id) ON DELETE CASCADE,
    position     integer   NOT NULL,
    name         text      NOT NULL,
    quantity     numeric(12, 3),
    unit_price   numeric(14, 3),
    total_price  numeric(14, 3),
    category     text      NOT NULL DEFAULT 'Other',
    description  text,
    UNIQUE (expense_id, position)
);

-- Every stage's duration and outcome per attempt (pipeline stats reads them).
CREATE TABLE stage_timings (
    id           bigserial        PRIMARY KEY,
    receipt_id   bigint           REFERENCES receipts (id) ON DELETE CASCADE,
    job_id       bigint,
    stage        text             NOT NULL,
    attempt      integer          NOT NULL,
    started_at   timestamptz      NOT NULL,
    duration_ms  double precision NOT NULL CHECK (duration_ms >= 0),
    outcome      text             NOT NULL CHECK (outcome IN ('ok', 'retry', 'failed', 'review', 'cancelled')),
    detail       text
);
CREATE INDEX stage_timings_started ON stage_timings (started_at);
CREATE INDEX stage_timings_receipt ON stage_timings (receipt_id);

-- Editable categorization rules: the first matching rule (lowest priority number) wins.
CREATE TABLE category_rules (
    id          bigserial   PRIMARY KEY,
    match_on    text        NOT NULL CHECK (match_on IN ('merchant', 'keyword', 'item')),
    pattern     text        NOT NULL,
    category    text        NOT NULL,
    priority    integer     NOT NULL DEFAULT 100,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (match_on, pattern)
);
