-- +goose Up
-- dsh's small shared state (package statefile/pgstate): the named
-- documents (tokens, sessions, accounts, boards, OAuth clients, login
-- links, OAuth codes), each the exact bytes of the JSON file a single
-- host keeps, and the rate limits' events.
--
-- version comes from one sequence, so a document's version never repeats
-- and a node's cached copy is checked with one indexed single-row read.
CREATE SEQUENCE state_version;
CREATE TABLE state_docs (
  name text PRIMARY KEY,
  version bigint NOT NULL,
  -- NULL only in a row a transaction made to lock a missing document
  -- and then rolled back: a committed document always has its bytes.
  data bytea,
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One row per counted event of a sliding window; key names the limit and
-- whom it counts. Rows whose window has passed (expires_at) are swept.
CREATE TABLE rate_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  key text NOT NULL,
  at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL
);
CREATE INDEX rate_events_key_at ON rate_events (key, at);
CREATE INDEX rate_events_expires_at ON rate_events (expires_at);

-- +goose Down
DROP TABLE rate_events;
DROP TABLE state_docs;
DROP SEQUENCE state_version;
