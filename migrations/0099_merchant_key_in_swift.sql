-- Expenses of one merchant are found by its name's words (`CategoryHistory.merchantKey`), computed in Swift and
-- stored at every write of the merchant (`ExpenseStore`, `KeptCorrections`); the SQL function that computed them in
-- queries and in an index goes.
ALTER TABLE expenses ADD COLUMN merchant_key text;
UPDATE expenses SET merchant_key = nullif(normalized_words(merchant), '');
DROP INDEX expenses_merchant_words;
CREATE INDEX expenses_merchant_key ON expenses (merchant_key);
DROP FUNCTION normalized_words(text);
