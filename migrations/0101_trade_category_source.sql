-- The trade a merchant's name states (`Apotheke`, `Tankstelle`, `Boulangerie`; docs/categories.md, "Trade words")
-- decides the category before a brand's and the fitted model's (PipelineCore's CategorySource.trade).
ALTER TABLE expenses DROP CONSTRAINT expenses_category_source_check;
ALTER TABLE expenses ADD CONSTRAINT expenses_category_source_check
    CHECK (category_source IN ('rule', 'history', 'llm', 'trade', 'brand', 'model', 'items', 'unsure'));
