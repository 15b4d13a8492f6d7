-- The rules the triggers of migrations 0011, 0012, 0030, 0040 and 0090 held now live in Swift, where every other
-- review decision lives (`PersonCorrections`, applied by `KeptCorrections` in the writer's transaction): a person's
-- latest values, decision and items outlive every machine write, and an accepted expense teaches its merchant. The
-- learned merchant a new reading takes is the pipeline's (`LearnedMerchants`), which also counts its use.
DROP TRIGGER expenses_10_learned_merchant ON expenses;
DROP TRIGGER expenses_20_keep_corrections ON expenses;
DROP TRIGGER expenses_30_keep_item_corrections ON expenses;
DROP TRIGGER expense_items_30_keep_item_corrections ON expense_items;
DROP TRIGGER expenses_40_learn_accepted_merchant ON expenses;
DROP FUNCTION apply_merchant_alias();
DROP FUNCTION keep_corrections();
DROP FUNCTION keep_item_corrections();
DROP FUNCTION learn_accepted_merchant();
