-- Where an expense's page text came from: the OCR engine (photos, scans, scanned PDFs) or a born-digital PDF's
-- text layer (docs/inputs.md). Shown by `pipeline show`, counted by `pipeline stats`, exported.
ALTER TABLE expenses
    ADD COLUMN page_source text NOT NULL DEFAULT 'ocr' CHECK (page_source IN ('ocr', 'pdf-text'));
