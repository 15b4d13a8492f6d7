-- Money columns are numeric(14,3) so three-decimal currencies fit; show two decimals unless the third is used.
CREATE FUNCTION money_text(amount numeric) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT CASE WHEN amount = round(amount, 2) THEN round(amount, 2)::text ELSE amount::text END $$;
