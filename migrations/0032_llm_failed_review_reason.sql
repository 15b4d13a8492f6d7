-- A receipt the vision LLM could not be asked about (a refused key, a spent quota, a server that kept failing, the
-- receipt's call budget spent) waits with the rules' reading and a finding starting with
-- LLMCallOutcome.notUsedFindingPrefix ('the LLM was not used: '). Until now it listed as llm_disagreement, as if
-- the model had answered and disagreed; it now has its own reason, llm_failed, which `pipeline reprocess
-- --llm-failed` clears once the cause is fixed. The prefix is matched here as PipelineCore writes it, and
-- ReviewStoreTests checks that they agree. The stored reasons of earlier rows are recomputed as in 0031.
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
        CASE WHEN EXISTS (SELECT 1 FROM jsonb_array_elements_text(findings) AS f(text)
                          WHERE f.text LIKE '%LLM%' AND NOT starts_with(f.text, 'the LLM was not used: '))
             THEN 'llm_disagreement' END,
        CASE WHEN EXISTS (SELECT 1 FROM jsonb_array_elements_text(findings) AS f(text)
                          WHERE starts_with(f.text, 'the LLM was not used: '))
             THEN 'llm_failed' END,
        CASE WHEN EXISTS (SELECT 1 FROM jsonb_array_elements_text(findings) AS f(text)
                          WHERE starts_with(f.text, 'not accepted automatically: '))
             THEN 'low_confidence' END
    ], NULL)
$$;

UPDATE expenses SET findings = findings
WHERE review_reasons IS DISTINCT FROM review_reasons(validation_outcome, findings, possible_duplicate_of);

ALTER TABLE expenses ENABLE TRIGGER expenses_10_learned_merchant;
ALTER TABLE expenses ENABLE TRIGGER expenses_20_keep_corrections;
ALTER TABLE expenses ENABLE TRIGGER expenses_30_keep_item_corrections;
