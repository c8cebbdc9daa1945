/**
 * Calls partitioned by UTC month of started_at (PostgreSQL's declarative partitioning), so that retention
 * drops a month of raw calls as one table instead of deleting and vacuuming its rows.
 *
 * A unique index of a partitioned table must hold the partition key, so call_id alone can no longer be
 * unique on calls: call_ids holds every call id ever stored, unique, written in the transaction that
 * stores the calls (ingest.ts), and kept when a month of calls is dropped, so that a call imported again
 * after its month went is still refused as a duplicate (its day is still counted in the rollups).
 *
 * The existing table is attached as one partition, not copied: its rows are not rewritten (no second copy
 * on disk, no WAL for each row), at the cost of reading it three times under the migration's lock (the
 * ids into call_ids, its last start, and ATTACH's check of the bound). It holds every call up to the end
 * of the month of its last call (calls_before_YYYY_MM, the month after), and retention drops it whole once
 * that month is past the cut-off. Its primary key goes (call_ids holds the ids); its index of (phone,
 * started_at) becomes the partition's part of the partitioned index. An empty table is simply dropped.
 *
 * retention_horizon: the instant before which raw calls were dropped, which a rollup rebuild reads.
 */
export const callsByMonth = `
CREATE TABLE call_ids (call_id text COLLATE "C" PRIMARY KEY);
INSERT INTO call_ids (call_id) SELECT call_id FROM calls ORDER BY call_id COLLATE "C";

ALTER TABLE calls RENAME TO calls_unpartitioned;
ALTER INDEX calls_by_phone RENAME TO calls_unpartitioned_by_phone;
ALTER TABLE calls_unpartitioned DROP CONSTRAINT calls_pkey;

CREATE TABLE calls (LIKE calls_unpartitioned INCLUDING DEFAULTS) PARTITION BY RANGE (started_at);
CREATE INDEX calls_by_phone ON calls (phone, started_at);

DO $$
DECLARE
  last_start bigint;
  bound timestamp;
  name text;
BEGIN
  SELECT max(started_at) INTO last_start FROM calls_unpartitioned;
  IF last_start IS NULL THEN
    DROP TABLE calls_unpartitioned;
    RETURN;
  END IF;
  bound := date_trunc('month', to_timestamp(last_start / 1000.0) AT TIME ZONE 'UTC') + interval '1 month';
  name := 'calls_before_' || to_char(bound, 'YYYY_MM');
  EXECUTE format('ALTER TABLE calls_unpartitioned RENAME TO %I', name);
  EXECUTE format('ALTER INDEX calls_unpartitioned_by_phone RENAME TO %I', name || '_by_phone');
  EXECUTE format('ALTER TABLE calls ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%s)', name,
    (extract(epoch FROM bound) * 1000)::bigint);
END
$$;

CREATE TABLE retention_horizon (
  single boolean PRIMARY KEY DEFAULT true CHECK (single),
  dropped_before bigint NOT NULL
);
`;
