-- The review loop (issue #17). A person can reject a receipt (not an expense): kept, out of the queue and reports.
ALTER TABLE expenses DROP CONSTRAINT expenses_status_check;
ALTER TABLE expenses ADD CONSTRAINT expenses_status_check CHECK (status IN ('accepted', 'needs_review', 'rejected'));

-- Where each OCR line sits on the page: {"width", "height", "lineBoxes": [{"left", "top", "width", "height"}, …]},
-- one box per line of ocr_text, so the review page can outline a field's evidence on the image.
ALTER TABLE expenses ADD COLUMN ocr_layout jsonb;

-- The review queue reads needing-review expenses oldest first.
CREATE INDEX expenses_review_queue ON expenses (committed_at, receipt_id) WHERE status = 'needs_review';

-- Why an expense needs review, in the words of PipelineCore's ReviewReason: the one place that decides it.
CREATE FUNCTION review_reasons(outcome text, findings jsonb, duplicate_of bigint) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT array_remove(ARRAY[
        CASE WHEN outcome = 'unbalanced' THEN 'unbalanced' END,
        CASE WHEN outcome = 'incomplete' THEN 'incomplete' END,
        CASE WHEN duplicate_of IS NOT NULL THEN 'possible_duplicate' END,
        CASE WHEN EXISTS (SELECT 1 FROM jsonb_array_elements_text(findings) AS f(text) WHERE f.text LIKE '%LLM%')
             THEN 'llm_disagreement' END
    ], NULL)
$$;

-- The reasons, kept with the row so the queue's filters and counts read a column instead of the findings.
ALTER TABLE expenses ADD COLUMN review_reasons text[]
    GENERATED ALWAYS AS (review_reasons(validation_outcome, findings, possible_duplicate_of)) STORED;

-- Receipt text as categorization and merchant aliases compare it: upper case, letters and digits, single spaces.
CREATE FUNCTION normalized_words(value text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT btrim(regexp_replace(upper(value), '[^[:alnum:]]+', ' ', 'g')) $$;
