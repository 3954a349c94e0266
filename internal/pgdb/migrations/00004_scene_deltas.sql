-- +goose Up
-- Scene bytes as deltas (pgstore): a scene row or a kept revision holds
-- either a document's own bytes (base NULL, as every row before this
-- migration) or a delta against the bytes of revision base of the same
-- scene (base = revision - 1), rebuilt from the nearest revision with
-- its own bytes (snapshot) through the deltas after it. A commit then
-- writes the change, not the document; every few commits one is
-- written whole again. byte_length is the document's length (NULL: the
-- length of data, a row of its own bytes); chain_bytes the deltas'
-- bytes since the snapshot, which bounds a rebuild. A revision's
-- sha256 (NULL in rows from before) checks its rebuilt bytes. kept is false for a
-- revision dropped by retention that a later one is still rebuilt
-- through: never served, deleted with the last revision that needs it.
-- Existing rows are untouched, and read as they are.
ALTER TABLE scenes ADD COLUMN byte_length bigint, ADD COLUMN base bigint, ADD COLUMN snapshot bigint,
  ADD COLUMN chain_bytes bigint NOT NULL DEFAULT 0;
ALTER TABLE revisions ADD COLUMN base bigint, ADD COLUMN snapshot bigint, ADD COLUMN sha256 text,
  ADD COLUMN kept boolean NOT NULL DEFAULT true;

-- +goose Down
-- Back to whole bytes only: refused while any row is a delta (read the
-- scenes' archives with this version, then restore them after).
-- +goose StatementBegin
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM scenes WHERE base IS NOT NULL) OR EXISTS (SELECT 1 FROM revisions WHERE base IS NOT NULL) THEN
    RAISE EXCEPTION 'scene rows are stored as deltas; archive and restore the scenes before going back';
  END IF;
END $$;
-- +goose StatementEnd
DELETE FROM revisions WHERE NOT kept;
ALTER TABLE revisions DROP COLUMN kept, DROP COLUMN sha256, DROP COLUMN snapshot, DROP COLUMN base;
ALTER TABLE scenes DROP COLUMN chain_bytes, DROP COLUMN snapshot, DROP COLUMN base, DROP COLUMN byte_length;
