-- Category history (PostgresCategoryHistory) finds a merchant's earlier expenses by the merchant's words. What
-- decided each expense's category is kept in field_sources -> 'category' ->> 'source' (PipelineCore's
-- CategorySource), which `pipeline stats` counts.
CREATE INDEX expenses_merchant_words ON expenses (normalized_words(merchant));
