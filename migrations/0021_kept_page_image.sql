-- The copy of the image made for the vision model with the OCR page of a receipt's first attempt (0020), so a
-- later attempt or `pipeline reprocess` skips decode, OCR and compression altogether. NULL when no model was
-- configured then (a re-run with a model reads the page afresh).
ALTER TABLE receipts ADD COLUMN ocr_page_llm_image bytea;
