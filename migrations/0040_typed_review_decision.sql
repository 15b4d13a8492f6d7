-- One typed review decision (issue #25). PipelineCore's ReviewPolicy decides an expense's status and review reasons
-- when it is committed, and the commit stores both as they are. Until now the reasons were a generated column that
-- the SQL function review_reasons (migrations 0010, 0031, 0032) derived by matching the findings' words; it is gone,
-- and nothing in the database derives anything from wording any more.
--
-- What the rows hold is kept and made consistent with the one decision:
--   * the reasons each row has now stay, as a plain column (low_confidence, the only reason the acceptance model
--     gave, which judged the total alone, is now total_not_sure);
--   * findings become typed values {"code", "field", "message"}; the words of earlier rows are kept under code
--     'untyped' (a reprocess types them afresh);
--   * needs_review ⇔ at least one reason, held by a constraint: a row the machine accepted that has a reason (a
--     failed check, a possible duplicate) waits for a person; a row a person accepted or rejected has none; a row
--     waiting without a named reason was held by the acceptance model alone (0031), so its total is not sure.
--
-- Nothing else may write expenses meanwhile, and the triggers that guard a person's corrections and items are off
-- for the backfill (it changes only status, reasons and the findings' form) and on again, all in this transaction.
ALTER TABLE expenses DISABLE TRIGGER expenses_10_learned_merchant;
ALTER TABLE expenses DISABLE TRIGGER expenses_20_keep_corrections;
ALTER TABLE expenses DISABLE TRIGGER expenses_30_keep_item_corrections;

ALTER TABLE expenses ALTER COLUMN review_reasons DROP EXPRESSION;
DROP FUNCTION review_reasons(text, jsonb, bigint);
UPDATE expenses SET review_reasons = '{}' WHERE review_reasons IS NULL;
ALTER TABLE expenses ALTER COLUMN review_reasons SET DEFAULT '{}';
ALTER TABLE expenses ALTER COLUMN review_reasons SET NOT NULL;

UPDATE expenses SET review_reasons = array_replace(review_reasons, 'low_confidence', 'total_not_sure')
WHERE 'low_confidence' = ANY (review_reasons);

UPDATE expenses e SET findings = (
    SELECT coalesce(jsonb_agg(CASE WHEN jsonb_typeof(f.value) = 'string'
                                   THEN jsonb_build_object('code', 'untyped', 'message', f.value #>> '{}')
                                   ELSE f.value END ORDER BY f.position), '[]')
    FROM jsonb_array_elements(e.findings) WITH ORDINALITY AS f (value, position))
WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(e.findings) AS f (value) WHERE jsonb_typeof(f.value) = 'string');

-- A person's latest decision on each receipt, if any.
CREATE TEMPORARY TABLE decided ON COMMIT DROP AS
    SELECT DISTINCT ON (receipt_id) receipt_id, person_value AS status FROM corrections
    WHERE field = 'status' ORDER BY receipt_id, id DESC;

UPDATE expenses e SET review_reasons = '{}'
FROM decided d WHERE d.receipt_id = e.receipt_id AND e.status <> 'needs_review' AND e.review_reasons <> '{}';

UPDATE expenses e SET status = 'needs_review'
WHERE e.status = 'accepted' AND e.review_reasons <> '{}'
  AND NOT EXISTS (SELECT 1 FROM decided d WHERE d.receipt_id = e.receipt_id);

UPDATE expenses SET review_reasons = '{total_not_sure}' WHERE status = 'needs_review' AND review_reasons = '{}';

ALTER TABLE expenses ADD CONSTRAINT expenses_review_reasons_check
    CHECK ((status = 'needs_review') = (cardinality(review_reasons) > 0));

-- A person's accept or reject resolves the receipt: it keeps no reason to wait (0030's function, plus that).
CREATE OR REPLACE FUNCTION keep_corrections() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    latest record;
BEGIN
    FOR latest IN
        SELECT DISTINCT ON (field) field, person_value AS value FROM corrections
        WHERE receipt_id = NEW.receipt_id AND field <> 'item' ORDER BY field, id DESC
    LOOP
        CASE latest.field
            WHEN 'merchant' THEN NEW.merchant := latest.value;
            WHEN 'date' THEN NEW.expense_date := latest.value::date; NEW.date_is_ambiguous := false;
            WHEN 'currency' THEN NEW.currency := latest.value;
            WHEN 'subtotal' THEN NEW.subtotal := latest.value::numeric;
            WHEN 'discounts' THEN NEW.discounts := latest.value::numeric;
            WHEN 'fees' THEN NEW.fees := latest.value::numeric;
            WHEN 'tax' THEN NEW.tax := latest.value::numeric;
            WHEN 'tip' THEN NEW.tip := latest.value::numeric;
            WHEN 'total' THEN NEW.total := latest.value::numeric;
            WHEN 'category' THEN NEW.category := latest.value;
            WHEN 'payment_method' THEN NEW.payment_method := latest.value;
            WHEN 'status' THEN
                NEW.status := latest.value;
                IF latest.value <> 'needs_review' THEN NEW.review_reasons := '{}'; END IF;
        END CASE;
    END LOOP;
    RETURN NEW;
END $$;

ALTER TABLE expenses ENABLE TRIGGER expenses_10_learned_merchant;
ALTER TABLE expenses ENABLE TRIGGER expenses_20_keep_corrections;
ALTER TABLE expenses ENABLE TRIGGER expenses_30_keep_item_corrections;
