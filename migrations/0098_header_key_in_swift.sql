-- The header key a learned merchant is stored and found under is computed in Swift (`MerchantHeader`), by the same
-- rule: the merchant's source lines, else the first line, as upper-cased words of letters and digits.
DROP FUNCTION receipt_header_key(text, jsonb);
