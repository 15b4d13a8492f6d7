-- The brand (OpenStreetMap name-suggestion-index, docs/brands.md) the merchant's lines read as, stored beside the
-- printed merchant (`Lidl` beside `Lidl Vertriebs GmbH & Co. KG`); `pipeline report --by merchant` groups by it.
-- NULL when no brand was recognized, and for expenses committed before this migration.
ALTER TABLE expenses ADD COLUMN brand text;

-- A brand's trade decides the category when no rule or person does (PipelineCore's CategorySource.brand).
ALTER TABLE expenses DROP CONSTRAINT expenses_category_source_check;
ALTER TABLE expenses ADD CONSTRAINT expenses_category_source_check
    CHECK (category_source IN ('rule', 'history', 'llm', 'brand', 'model', 'items', 'unsure'));
