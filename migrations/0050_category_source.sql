-- What decided each expense's category (PipelineCore's CategorySource: rule, history, llm, model, items, unsure);
-- `pipeline stats` counts them. NULL for expenses committed before this migration.
ALTER TABLE expenses ADD COLUMN category_source text
    CHECK (category_source IN ('rule', 'history', 'llm', 'model', 'items', 'unsure'));

-- Category history (PostgresCategoryHistory) finds a merchant's earlier expenses by the merchant's words.
CREATE INDEX expenses_merchant_words ON expenses (normalized_words(merchant));
