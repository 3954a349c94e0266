-- +goose Up
-- Scenes: the current bytes of each, exactly as the file store keeps the
-- .excalidraw file, with the revision record in columns.
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
  node text NOT NULL DEFAULT ''
);
-- Every revision's bytes (ReadRevision, restore).
CREATE TABLE revisions (
  name text NOT NULL,
  revision bigint NOT NULL,
  data bytea NOT NULL,
  PRIMARY KEY (name, revision)
);
-- The request ids a scene remembers (its last 32), for replay.
CREATE TABLE requests (
  name text NOT NULL,
  request_id text NOT NULL,
  revision bigint NOT NULL,
  sha256 text NOT NULL,
  at timestamptz NOT NULL,
  PRIMARY KEY (name, request_id)
);
-- The journal: one row per commit, written in the commit's transaction.
CREATE TABLE journal (
  name text NOT NULL,
  seq bigint NOT NULL,
  commit_id text NOT NULL UNIQUE,
  entry jsonb NOT NULL,
  images bytea,
  PRIMARY KEY (name, seq)
);

-- +goose Down
DROP TABLE journal;
DROP TABLE requests;
DROP TABLE revisions;
DROP TABLE scenes;
