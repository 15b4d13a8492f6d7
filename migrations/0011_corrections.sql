-- The audit trail of the review loop: every correction keeps the machine's value, the person's value, who and when.
-- Keyed by receipt (not expense) so a reprocess that replaces the expense row keeps its corrections.
-- `status` rows are a person's accept or reject.
CREATE TABLE corrections (
    id             bigserial   PRIMARY KEY,
    receipt_id     bigint      NOT NULL REFERENCES receipts (id) ON DELETE CASCADE,
    field          text        NOT NULL CHECK (field IN ('merchant', 'date', 'currency', 'subtotal', 'discounts',
                                   'fees', 'tax', 'tip', 'total', 'category', 'payment_method', 'status')),
    machine_value  text,
    person_value   text,
    corrected_by   text        NOT NULL,
    corrected_at   timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX corrections_receipt ON corrections (receipt_id, field, id);

-- Corrected fields are never overwritten: every write of an expense row (a worker's commit, a reprocess, a
-- re-categorization) gets each field's latest person value back.
CREATE FUNCTION keep_corrections() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    latest record;
BEGIN
    FOR latest IN
        SELECT DISTINCT ON (field) field, person_value AS value FROM corrections
        WHERE receipt_id = NEW.receipt_id ORDER BY field, id DESC
    LOOP
        CASE latest.field
            WHEN 'merchant' THEN NEW.merchant := latest.value;
            WHEN 'date' THEN NEW.expense_date := latest.value::date; NEW.date_is_ambiguous := false;
            WHEN 'currency' THEN NEW.currency := latest.value;
            WHEN 'subtotal' THEN NEW.subtotal := latest.value::numeric;
            WHEN 'discounts' THEN NEW.discounts := latest.value::numeric;
            WHEN 'fees' THEN NEW.fees := latest.value::numeric;
            WHEN 'tax' THEN NEW.tax := latest.value::numeric;
            WHEN 'tip' THEN NEW.tip := latest.value::numeric;
            WHEN 'total' THEN NEW.total := latest.value::numeric;
            WHEN 'category' THEN NEW.category := latest.value;
            WHEN 'payment_method' THEN NEW.payment_method := latest.value;
            WHEN 'status' THEN NEW.status := latest.value;
        END CASE;
    END LOOP;
    RETURN NEW;
END $$;

-- Triggers fire in name order: learned merchants (0012) first, a person's corrections last.
CREATE TRIGGER expenses_20_keep_corrections BEFORE INSERT OR UPDATE ON expenses
    FOR EACH ROW EXECUTE FUNCTION keep_corrections();
