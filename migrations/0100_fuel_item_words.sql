-- Fuel lines as continental receipts print them (docs/categories.md, "A fuel station's shop"): 0003's item rules know
-- English and Malay fuel names only, so a French or German fuel station's receipt had no fuel line, and a brand of
-- several trades (a supermarket chain's fuel stations) could not tell its fuel receipts from its shop's. Editable like
-- every seeded rule; a row a person already has is kept.
INSERT INTO category_rules (match_on, pattern, category, priority) VALUES
    ('item', 'benzin', 'Fuel', 100),
    ('item', 'super e5', 'Fuel', 100),
    ('item', 'super e10', 'Fuel', 100),
    ('item', 'gazole', 'Fuel', 100),
    ('item', 'sans plomb', 'Fuel', 100),
    ('item', 'sp95', 'Fuel', 100),
    ('item', 'sp98', 'Fuel', 100),
    ('item', 'gasolina', 'Fuel', 100),
    ('item', 'gasoleo', 'Fuel', 100),
    ('item', 'gasóleo', 'Fuel', 100),
    ('item', 'benzina', 'Fuel', 100),
    ('item', 'gasolio', 'Fuel', 100),
    ('item', 'benzine', 'Fuel', 100),
    ('item', 'euro 95', 'Fuel', 100),
    ('item', 'benzyna', 'Fuel', 100),
    ('item', 'pb95', 'Fuel', 100),
    ('item', 'olej napedowy', 'Fuel', 100),
    ('item', 'olej napędowy', 'Fuel', 100)
ON CONFLICT (match_on, pattern) DO NOTHING;
