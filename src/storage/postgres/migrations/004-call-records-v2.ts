/**
 * Version 2 of the call record and the rollups of the reports built on it. Upgrades a database in
 * place: a column added with a constant default is not written into existing rows (PostgreSQL 11+), so
 * the calls and daily rollups of version 1 stay as they are and read 0 in the new sums, which is what
 * their records meant. The new rollups start empty, as no version-1 call has a caller or a path.
 *
 * Every rollup is keyed by phone and local day first, so a report over some numbers and days reads a
 * range of the primary key, and a rebuild deletes a phone's rows by its prefix.
 */
export const callRecordsVersion2 = `
-- region: regionOfCaller(caller), computed in Node at ingest so that a rebuild stays in SQL. It is the
-- region of the library version that ingested the call: a later version that places a number
-- elsewhere changes the region of new calls, not of stored ones.
ALTER TABLE calls
  ADD COLUMN caller text,
  ADD COLUMN region text,
  ADD COLUMN duration_ms bigint NOT NULL DEFAULT 0,
  ADD COLUMN transfers integer NOT NULL DEFAULT 0,
  ADD COLUMN transfer_ms bigint NOT NULL DEFAULT 0,
  ADD COLUMN js_errors integer NOT NULL DEFAULT 0,
  ADD COLUMN fetch_errors integer NOT NULL DEFAULT 0,
  ADD COLUMN page_loads integer NOT NULL DEFAULT 0,
  ADD COLUMN page_load_ms bigint NOT NULL DEFAULT 0;

ALTER TABLE daily_rollups
  ADD COLUMN duration_ms bigint NOT NULL DEFAULT 0,
  ADD COLUMN transfers bigint NOT NULL DEFAULT 0,
  ADD COLUMN transfer_ms bigint NOT NULL DEFAULT 0,
  ADD COLUMN js_errors bigint NOT NULL DEFAULT 0,
  ADD COLUMN fetch_errors bigint NOT NULL DEFAULT 0,
  ADD COLUMN page_loads bigint NOT NULL DEFAULT 0,
  ADD COLUMN page_load_ms bigint NOT NULL DEFAULT 0;

-- Who called each phone on each local day: distinct callers over a span are a count(DISTINCT) over
-- the span's days, exact however many days or phones a caller called.
CREATE TABLE caller_days (
  phone text NOT NULL,
  day integer NOT NULL,
  caller text NOT NULL,
  PRIMARY KEY (phone, day, caller)
);

CREATE TABLE region_days (
  phone text NOT NULL,
  day integer NOT NULL,
  region text NOT NULL,
  calls bigint NOT NULL,
  PRIMARY KEY (phone, day, region)
);

-- The texts of each form item once, so that raw entries and rollups hold a bigint. Unique on a
-- SHA-256 of the four texts, not on the texts: at 500 characters each they can pass the ~2.7 kB
-- that a btree entry may hold. The digest is computed in Node (paths.ts) and only at ingest; a
-- rebuild goes by id.
CREATE TABLE form_items (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  digest bytea NOT NULL UNIQUE,
  application text NOT NULL,
  page text NOT NULL,
  form text NOT NULL,
  item text NOT NULL
);

-- The path of each call as given, one row per entry (step: its place in the path), from which a
-- rebuild sums form items by day. Phone first in the key so that a rebuild reads a phone's entries
-- through it; started_at is the call's, so that a rebuild needs no join with calls.
CREATE TABLE call_path (
  phone text NOT NULL,
  call_id text NOT NULL,
  step integer NOT NULL,
  started_at bigint NOT NULL,
  form_item_id bigint NOT NULL,
  visits integer NOT NULL,
  filled integer NOT NULL,
  nomatch integer NOT NULL,
  noinput integer NOT NULL,
  transfer integer NOT NULL,
  disconnect integer NOT NULL,
  PRIMARY KEY (phone, call_id, step)
);

CREATE TABLE form_item_days (
  phone text NOT NULL,
  day integer NOT NULL,
  form_item_id bigint NOT NULL,
  visits bigint NOT NULL,
  filled bigint NOT NULL,
  nomatch bigint NOT NULL,
  noinput bigint NOT NULL,
  transfer bigint NOT NULL,
  disconnect bigint NOT NULL,
  PRIMARY KEY (phone, day, form_item_id)
);
`;
