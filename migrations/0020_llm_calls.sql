-- Vision-LLM calls per receipt (issue 16): one budget of calls over all queue attempts, failures by reason for
-- `pipeline stats`, the receipts to re-run once the account is fixed, and the OCR page of the first attempt.

ALTER TABLE receipts
    -- HTTP calls made to the model for this receipt, over every attempt (the budget is llm.retries + 1).
    ADD COLUMN llm_calls_used integer NOT NULL DEFAULT 0 CHECK (llm_calls_used >= 0),
    -- Code of the last LLM failure ('authentication', 'quota_exhausted', 'server', ...); NULL after a reply.
    ADD COLUMN llm_failure    text,
    -- The OCRPage (JSON) of the first attempt, reused by later attempts and `pipeline reprocess`.
    ADD COLUMN ocr_page       jsonb,
    -- What made that page (engine and options), so a page from other settings is not reused.
    ADD COLUMN ocr_page_made_by text;

-- `pipeline reprocess --llm-failed` reads these.
CREATE INDEX receipts_llm_failed ON receipts (id) WHERE llm_failure IS NOT NULL;

-- One row per attempt that called the model: calls made and how the last one ended.
CREATE TABLE llm_calls (
    id          bigserial   PRIMARY KEY,
    receipt_id  bigint      NOT NULL REFERENCES receipts (id) ON DELETE CASCADE,
    job_id      bigint,
    attempt     integer     NOT NULL CHECK (attempt > 0),
    calls       integer     NOT NULL CHECK (calls >= 0),
    -- 'ok' or a failure code of VisionModelError.Code.
    outcome     text        NOT NULL,
    message     text,
    at          timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX llm_calls_at ON llm_calls (at);
CREATE INDEX llm_calls_receipt ON llm_calls (receipt_id);
