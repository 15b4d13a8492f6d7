-- How each expense's receipt printed its total and date (PipelineCore's MerchantLayout: the words of the total's
-- line, the date's form), written at commit from the machine's reading and again when a person corrects the total
-- or date. The accepted expenses of a merchant teach its layout (`LearnedMerchants.knownMerchants`); a later receipt
-- of it printed the same way has its total and date vouched for (docs/extraction-fitting.md, "Learning"). NULL for
-- expenses committed before this migration, and when neither was found printed.
ALTER TABLE expenses ADD COLUMN printed_layout jsonb;
