-- Every accepted expense teaches, not only a corrected merchant (docs/extraction-fitting.md, "Learning"): when an
-- expense is accepted — by the worker, or by a person, with or without a correction — its merchant is remembered
-- for its header (the lines the name was read from), unless that header already names one. Later receipts whose
-- top lines read like a remembered header or name get the name as a ranked candidate of their own
-- (`LearnedMerchants.knownMerchants`).
CREATE FUNCTION learn_accepted_merchant() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    key text;
BEGIN
    IF NEW.status = 'accepted' AND nullif(btrim(NEW.merchant), '') IS NOT NULL THEN
        key := receipt_header_key(NEW.ocr_text, NEW.field_sources);
        IF key IS NOT NULL THEN
            INSERT INTO merchant_aliases (header_key, merchant, learned_from, created_by)
            VALUES (key, NEW.merchant, NEW.receipt_id, 'accepted')
            ON CONFLICT (header_key) DO NOTHING;
        END IF;
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER expenses_40_learn_accepted_merchant AFTER INSERT OR UPDATE OF status, merchant ON expenses
    FOR EACH ROW EXECUTE FUNCTION learn_accepted_merchant();

-- What accepted history holds today teaches as well.
INSERT INTO merchant_aliases (header_key, merchant, learned_from, created_by)
SELECT DISTINCT ON (key) key, merchant, receipt_id, 'accepted'
FROM (SELECT receipt_header_key(ocr_text, field_sources) AS key, merchant, receipt_id, id
      FROM expenses WHERE status = 'accepted' AND nullif(btrim(merchant), '') IS NOT NULL) AS accepted
WHERE key IS NOT NULL
ORDER BY key, id DESC
ON CONFLICT (header_key) DO NOTHING;
