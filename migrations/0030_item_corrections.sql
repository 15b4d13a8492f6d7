-- Line item corrections (issue #17). Once a person edits a receipt's items (changes, removes or adds one), their
-- list is the receipt's list: every later write of the expense (a worker's commit, a reprocess, a
-- re-categorization) ends with these items. Each edit is a `corrections` row with field 'item' whose values are
-- item readings such as '#2 Coffee × 2 = 5.50' (the machine's reading of the item, the person's).
ALTER TABLE corrections DROP CONSTRAINT corrections_field_check;
ALTER TABLE corrections ADD CONSTRAINT corrections_field_check CHECK (field IN ('merchant', 'date', 'currency',
    'subtotal', 'discounts', 'fees', 'tax', 'tip', 'total', 'category', 'payment_method', 'status', 'item'));

-- The person's list, keyed by receipt (not expense) like `corrections`, so a reprocess that replaces the expense
-- row keeps it. `machine_reading` is how the machine read the item, null for an item a person added.
CREATE TABLE corrected_items (
    receipt_id       bigint         NOT NULL REFERENCES receipts (id) ON DELETE CASCADE,
    position         integer        NOT NULL CHECK (position > 0),
    name             text           NOT NULL,
    quantity         numeric(12, 3),
    unit_price       numeric(14, 3),
    total_price      numeric(14, 3),
    category         text           NOT NULL DEFAULT 'Other',
    machine_reading  text,
    PRIMARY KEY (receipt_id, position)
);

-- Field corrections as in 0011; item rows are kept by keep_item_corrections below.
CREATE OR REPLACE FUNCTION keep_corrections() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    latest record;
BEGIN
    FOR latest IN
        SELECT DISTINCT ON (field) field, person_value AS value FROM corrections
        WHERE receipt_id = NEW.receipt_id AND field <> 'item' ORDER BY field, id DESC
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

-- At the end of every transaction that wrote an expense or its items, when a person edited that receipt's items,
-- the expense's items are the person's list. Deferred, so it runs after the writer wrote its own items
-- (ExpenseStore.commit writes the expense, then its items, in one transaction); it rewrites them only when they
-- differ, so the rows it writes itself find nothing to do.
CREATE FUNCTION keep_item_corrections() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    expense bigint;
    receipt bigint;
BEGIN
    IF TG_TABLE_NAME = 'expenses' THEN
        expense := NEW.id;
    ELSIF TG_OP = 'DELETE' THEN
        expense := OLD.expense_id;
    ELSE
        expense := NEW.expense_id;
    END IF;
    SELECT receipt_id INTO receipt FROM expenses WHERE id = expense;
    IF receipt IS NULL
       OR NOT EXISTS (SELECT 1 FROM corrections WHERE receipt_id = receipt AND field = 'item') THEN
        RETURN NULL;
    END IF;
    IF EXISTS (
        (SELECT position, name, quantity, unit_price, total_price FROM expense_items WHERE expense_id = expense
         EXCEPT
         SELECT position, name, quantity, unit_price, total_price FROM corrected_items WHERE receipt_id = receipt)
        UNION ALL
        (SELECT position, name, quantity, unit_price, total_price FROM corrected_items WHERE receipt_id = receipt
         EXCEPT
         SELECT position, name, quantity, unit_price, total_price FROM expense_items WHERE expense_id = expense))
    THEN
        DELETE FROM expense_items WHERE expense_id = expense;
        INSERT INTO expense_items (expense_id, position, name, quantity, unit_price, total_price, category)
        SELECT expense, position, name, quantity, unit_price, total_price, category
        FROM corrected_items WHERE receipt_id = receipt;
    END IF;
    RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER expenses_30_keep_item_corrections AFTER INSERT OR UPDATE ON expenses
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION keep_item_corrections();
CREATE CONSTRAINT TRIGGER expense_items_30_keep_item_corrections AFTER INSERT OR UPDATE OR DELETE ON expense_items
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION keep_item_corrections();
