-- Soft duplicates (issue #25): a re-scan or a second photo of a receipt has other bytes, so the image hash does not
-- find it; the perceptual hash of the decoded page (PipelineCore's PageFingerprint, 64 bits stored as a bigint)
-- does. The commit compares a new expense's fingerprint with the stored ones by Hamming distance
-- (bit_count(a # b)) and sends a near-identical one to review as a possible duplicate. Null for expenses committed
-- before this migration or from a page that was not decoded in that run.
ALTER TABLE expenses ADD COLUMN page_fingerprint bigint;
