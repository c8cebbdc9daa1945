/**
 * The rollups of numbers (daily_rollups, caller_days, form_item_days) partitioned by the UTC month of
 * their day, as calls are by month (migration 010): an import's
 * calls come in time order, so its rollup rows go into the indexes of the month or two it covers instead
 * of into indexes as large as all history. After each checkpoint PostgreSQL writes the whole of each page
 * it changes into the WAL, once; an insert anywhere in a year-long index touches a page of its own almost
 * every time, where inserts into this month's touch the same few pages again (docs/scaling.md measures
 * the WAL and the rate before and after). Reports read a range of days, which the planner keeps to the
 * months it spans. Rollups are kept for ever: nothing drops their partitions. account_daily_rollups stays
 * one table: small, and read a year at a time by the reports over all of an account's numbers, which lost
 * two fifths of their rate with it partitioned.
 *
 * The calls of each number and day by region are kept on the rows of their callers (caller_days gains
 * the caller's region and calls), where region_days kept a row of their own: one row and index entry per
 * call fewer, as a call with a caller always has a region. A caller's row keeps one region a day: that of
 * the first batch with the caller's calls (the least, when a batch's were placed in two, as a rebuild
 * takes). region_days keeps the rows written before this migration and is no longer written: a report
 * adds it to caller_days' counts, and a rebuild of a number moves its days over. The
 * callers stored before it have no count (NULL), their calls being counted in region_days.
 *
 * Each existing table is attached whole, as one partition of every day up to the end of the month of its
 * last one (daily_rollups_before_YYYY_MM, the month after), not copied: its rows are not rewritten, at the
 * cost of reading it twice under the migration's lock (its last day, and ATTACH's check of the bound). Its
 * primary key becomes the partition's part of the new table's. An empty table is simply dropped. The
 * months after it get partitions as calls of theirs arrive (partitions.ts).
 */
export const rollupsByMonth = `
ALTER TABLE caller_days ADD COLUMN region text, ADD COLUMN calls bigint;

DO $$
DECLARE
  rollup record;
  last_day integer;
  bound date;
  name text;
BEGIN
  FOR rollup IN SELECT * FROM (VALUES
    ('daily_rollups', 'phone, day'),
    ('caller_days', 'phone, day, caller'),
    ('form_item_days', 'phone, day, form_item_id')
  ) AS rollups(name, key) LOOP
    EXECUTE format('ALTER TABLE %I RENAME TO %I', rollup.name, rollup.name || '_unpartitioned');
    EXECUTE format('ALTER INDEX %I RENAME TO %I', rollup.name || '_pkey', rollup.name || '_unpartitioned_pkey');
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING GENERATED) PARTITION BY RANGE (day)', rollup.name, rollup.name || '_unpartitioned');
    EXECUTE format('ALTER TABLE %I ADD PRIMARY KEY (%s)', rollup.name, rollup.key);
    EXECUTE format('SELECT max(day) FROM %I', rollup.name || '_unpartitioned') INTO last_day;
    IF last_day IS NULL THEN
      EXECUTE format('DROP TABLE %I', rollup.name || '_unpartitioned');
      CONTINUE;
    END IF;
    bound := date_trunc('month', date '1970-01-01' + last_day) + interval '1 month';
    name := rollup.name || '_before_' || to_char(bound, 'YYYY_MM');
    EXECUTE format('ALTER TABLE %I RENAME TO %I', rollup.name || '_unpartitioned', name);
    EXECUTE format('ALTER INDEX %I RENAME TO %I', rollup.name || '_unpartitioned_pkey', name || '_pkey');
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%s)', rollup.name, name, bound - date '1970-01-01');
  END LOOP;
END
$$;
`;
