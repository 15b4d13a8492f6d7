-- A receipt whose checks all passed can still need review: the calibrated acceptance model was not sure enough that
-- its total is right. Its findings then carry one line starting with AutoAcceptance.heldBackFindingPrefix
-- ('not accepted automatically: ', then the model's reason); until now no reason named it, so it waited in the
-- queue with an empty reason. This function decides the reasons (ReviewReason names them); the prefix is matched
-- here as PipelineCore writes it, and ReviewStoreTests checks that a receipt the model held back lists with it.
--
-- Nothing else may write expenses while the stored reasons are recomputed below, and the recompute changes nothing
-- but those reasons: the triggers that guard what a writer changes (a person's corrections, learned merchants, the
-- person's items) are switched off for it and on again, all in this migration's one transaction.
ALTER TABLE expenses DISABLE TRIGGER expenses_10_learned_merchant;
ALTER TABLE expenses DISABLE TRIGGER expenses_20_keep_corrections;
ALTER TABLE expenses DISABLE TRIGGER expenses_30_keep_item_corrections;

CREATE OR REPLACE FUNCTION review_reasons(outcome text, findings jsonb, duplicate_of bigint) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT array_remove(ARRAY[
        CASE WHEN outcome = 'unbalanced' THEN 'unbalanced' END,
        CASE WHEN outcome = 'incomplete' THEN 'incomplete' END,
        CASE WHEN duplicate_of IS NOT NULL THEN 'possible_duplicate' END,
        CASE WHEN EXISTS (SELECT 1 FROM jsonb_array_elements_text(findings) AS f(text) WHERE f.text LIKE '%LLM%')
             THEN 'llm_disagreement' END,
        CASE WHEN EXISTS (SELECT 1 FROM jsonb_array_elements_text(findings) AS f(text)
                          WHERE starts_with(f.text, 'not accepted automatically: '))
             THEN 'low_confidence' END
    ], NULL)
$$;

-- expenses.review_reasons is a stored generated column: PostgreSQL computes it when a row is written, so rows
-- written before this migration keep the old reasons until a write recomputes them. Writing `findings` (one of its
-- inputs) back unchanged does that; only rows whose reasons change are written.
UPDATE expenses SET findings = findings
WHERE review_reasons IS DISTINCT FROM review_reasons(validation_outcome, findings, possible_duplicate_of);

ALTER TABLE expenses ENABLE TRIGGER expenses_10_learned_merchant;
ALTER TABLE expenses ENABLE TRIGGER expenses_20_keep_corrections;
ALTER TABLE expenses ENABLE TRIGGER expenses_30_keep_item_corrections;
