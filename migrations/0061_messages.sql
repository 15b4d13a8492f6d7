-- E-mails receipts came with (docs/inputs.md): each image or PDF attachment, or a body that reads like a receipt,
-- is a receipt linked to its message. A message is stored once, keyed by its Message-ID (or the digest of its bytes).
CREATE TABLE messages (
    id          bigserial   PRIMARY KEY,
    message_key text        NOT NULL UNIQUE,
    sender      text        NOT NULL,
    subject     text        NOT NULL,
    sent_at     timestamptz,
    ingested_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE receipts ADD COLUMN message_id bigint REFERENCES messages (id);
CREATE INDEX receipts_message ON receipts (message_id) WHERE message_id IS NOT NULL;

-- The page as the pipeline rendered it (JPEG), for receipts browsers cannot show (PDF, HEIC, AVIF, TIFF): the
-- review page shows it, with a link to the original file.
ALTER TABLE receipts ADD COLUMN rendered_page bytea;
ALTER TABLE receipts ALTER COLUMN rendered_page SET STORAGE EXTERNAL;
