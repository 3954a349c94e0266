-- +goose Up
-- Scenes: the current bytes of each, exactly as the file store keeps the
-- .excalidraw file, with the revision record in columns. node is the
-- Store instance that made the current revision (CommittedHere; '' for
-- a scene restored from an archive); journal_seq the Seq of the scene's
-- newest journal entry.
CREATE TABLE scenes (
  name text PRIMARY KEY,
  revision bigint NOT NULL,
  sha256 text NOT NULL,
  data bytea NOT NULL,
  element_count integer NOT NULL,
  updated_at timestamptz NOT NULL,
  updated_by text NOT NULL,
  updated_by_name text NOT NULL DEFAULT '',
  previous_revision bigint NOT NULL DEFAULT 0,
  previous_sha256 text NOT NULL DEFAULT '',
  node text NOT NULL DEFAULT '',
  journal_seq bigint NOT NULL DEFAULT 0
);
-- The bytes of superseded revisions (ReadRevision), copied from scenes
-- by the commit that replaces them, as long as the journal keeps their
-- entries (retention deletes both). corrupt marks bytes that did not
-- parse when they were superseded, which a scene restored from the file
-- store may have (its .corrupt backups): kept, never served.
CREATE TABLE revisions (
  name text NOT NULL REFERENCES scenes ON DELETE CASCADE,
  revision bigint NOT NULL,
  corrupt boolean NOT NULL DEFAULT false,
  data bytea NOT NULL,
  committed_at timestamptz NOT NULL,
  PRIMARY KEY (name, revision, corrupt)
);
-- The request ids a scene remembers (its last 32), for replay: each with
-- the record of the commit it made; ord is the order they were
-- remembered in (a scene's writes take turns: see pgstore).
CREATE TABLE requests (
  name text NOT NULL REFERENCES scenes ON DELETE CASCADE,
  request_id text NOT NULL,
  revision bigint NOT NULL,
  sha256 text NOT NULL,
  byte_length bigint NOT NULL,
  element_count integer NOT NULL,
  at timestamptz NOT NULL,
  ord bigint GENERATED ALWAYS AS IDENTITY,
  PRIMARY KEY (name, request_id)
);
CREATE INDEX requests_by_ord ON requests (name, ord);
-- The journal: one row per commit, written in the commit's transaction.
-- entry is the journal.Entry; images its journal.Images as JSON (NULL:
-- none), which PostgreSQL compresses itself (TOAST) when large; revision
-- and at repeat the entry's, for Log's filters.
CREATE TABLE journal (
  name text NOT NULL REFERENCES scenes ON DELETE CASCADE,
  seq bigint NOT NULL,
  commit_id text NOT NULL UNIQUE,
  revision bigint NOT NULL,
  at timestamptz NOT NULL,
  entry jsonb NOT NULL,
  images bytea,
  PRIMARY KEY (name, seq)
);

-- +goose Down
DROP TABLE journal;
DROP TABLE requests;
DROP TABLE revisions;
DROP TABLE scenes;
