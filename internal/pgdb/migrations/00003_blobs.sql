-- +goose Up
-- The file service's files (plugins/excalidraw/files): one row per
-- logical path, "rooms/{board}/{rest}" or "shareLinks/{rest}", its bytes
-- exactly as uploaded (the client has already encrypted and compressed
-- them). A file is at most files.maxFileBytes (64 MiB at most), so the
-- bytes are a bytea column, written whole in one transaction, rather
-- than a large object that a deleted row would leave behind. Keys
-- compare byte by byte (COLLATE "C"), the order the listing pages in.
CREATE TABLE file_blobs (
  path text COLLATE "C" PRIMARY KEY,
  content_type text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  sha256 text NOT NULL CHECK (length(sha256) = 64),
  data bytea NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (octet_length(data) = size)
);
-- Encrypted bytes do not compress: keep them out of line, uncompressed.
ALTER TABLE file_blobs ALTER COLUMN data SET STORAGE EXTERNAL;

-- Exported pictures and scenes (plugins/excalidraw/exports), behind
-- signed links: one row per export id ("<32 hex>[-tile].<format>").
-- The sweep deletes the rows older than the retention.
CREATE TABLE export_blobs (
  id text COLLATE "C" PRIMARY KEY,
  format text NOT NULL,
  size bigint NOT NULL CHECK (size >= 0),
  data bytea NOT NULL,
  created_at timestamptz NOT NULL,
  CHECK (octet_length(data) = size)
);
CREATE INDEX export_blobs_created_at ON export_blobs (created_at);

-- +goose Down
DROP TABLE export_blobs;
DROP TABLE file_blobs;
