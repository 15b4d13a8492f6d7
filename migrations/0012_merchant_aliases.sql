-- Corrections teach: a corrected merchant name is remembered for the receipt's header text (the OCR lines the
-- merchant was read from, else the first line), and later receipts whose header reads the same get that name.
CREATE TABLE merchant_aliases (
    id            bigserial   PRIMARY KEY,
    header_key    text        NOT NULL UNIQUE,
    merchant      text        NOT NULL,
    learned_from  bigint      REFERENCES receipts (id) ON DELETE SET NULL,
    created_by    text        NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    -- Later expenses that took their merchant from this alias.
    uses          integer     NOT NULL DEFAULT 0,
    last_used_at  timestamptz
);

-- The header key of an expense: its merchant's evidence lines (else the first line) as normalized words.
CREATE FUNCTION receipt_header_key(ocr_text text, field_sources jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT nullif(normalized_words(coalesce(
        (SELECT string_agg((string_to_array(ocr_text, E'\n'))[line::int + 1], ' ' ORDER BY line::int)
         FROM jsonb_array_elements_text(coalesce(field_sources -> 'merchant' -> 'lines', '[]')) AS l(line)),
        split_part(ocr_text, E'\n', 1), '')), '')
$$;

-- A new machine reading takes a learned merchant name; counted as a use of the alias.
CREATE FUNCTION apply_merchant_alias() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    alias record;
BEGIN
    SELECT id, merchant INTO alias FROM merchant_aliases
    WHERE header_key = receipt_header_key(NEW.ocr_text, NEW.field_sources)
      AND learned_from IS DISTINCT FROM NEW.receipt_id;
    IF FOUND AND NEW.merchant IS DISTINCT FROM alias.merchant THEN
        NEW.merchant := alias.merchant;
        UPDATE merchant_aliases SET uses = uses + 1, last_used_at = now() WHERE id = alias.id;
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER expenses_10_learned_merchant BEFORE INSERT OR UPDATE OF ocr_text, field_sources ON expenses
    FOR EACH ROW EXECUTE FUNCTION apply_merchant_alias();

-- Category rules made from a corrected receipt ("always file this merchant under …").
ALTER TABLE category_rules ADD COLUMN learned_from bigint REFERENCES receipts (id) ON DELETE SET NULL;
ALTER TABLE category_rules ADD COLUMN created_by text;
