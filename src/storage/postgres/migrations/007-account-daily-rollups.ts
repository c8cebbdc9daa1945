/**
 * The daily sums of every number of an account together, per local day: a report over all of an
 * account's numbers (the usual one) reads one row a day here, where daily_rollups holds one per number
 * and day, to be summed on every request. Kept in the transaction of each change to what it sums: an
 * ingest adds its calls, a number assigned adds its days and a number released takes them away, a
 * time-zone change computes the account's rows again. A day whose calls all went with a released number
 * keeps a row of zeros, which a report skips.
 *
 * Each row also holds its day as the text a report reads (day-totals-text.ts), written by PostgreSQL
 * whenever the row changes: a year of days is then 365 texts joined, where turning a dozen numbers of each
 * into text on every request was most of the read.
 *
 * Filled here from the daily rollups of the numbers that have an owner. account_id is compared byte for
 * byte ("C"): its rows are found by equality, and writers sort them that way.
 */
export const accountDailyRollups = `
CREATE TABLE account_daily_rollups (
  account_id text COLLATE "C" NOT NULL,
  day integer NOT NULL,
  calls bigint NOT NULL,
  log_events bigint NOT NULL,
  loops bigint NOT NULL,
  form_items bigint NOT NULL,
  duration_ms bigint NOT NULL,
  transfers bigint NOT NULL,
  transfer_ms bigint NOT NULL,
  js_errors bigint NOT NULL,
  fetch_errors bigint NOT NULL,
  page_loads bigint NOT NULL,
  page_load_ms bigint NOT NULL,
  line text GENERATED ALWAYS AS (
    day::text || ',' || calls::text || ',' || log_events::text || ',' || loops::text || ',' || form_items::text || ','
    || duration_ms::text || ',' || transfers::text || ',' || transfer_ms::text || ',' || js_errors::text || ','
    || fetch_errors::text || ',' || page_loads::text || ',' || page_load_ms::text
  ) STORED,
  PRIMARY KEY (account_id, day)
);

INSERT INTO account_daily_rollups (account_id, day, calls, log_events, loops, form_items, duration_ms, transfers, transfer_ms,
  js_errors, fetch_errors, page_loads, page_load_ms)
SELECT phones.account_id, days.day, sum(days.calls), sum(days.log_events), sum(days.loops), sum(days.form_items),
  sum(days.duration_ms), sum(days.transfers), sum(days.transfer_ms), sum(days.js_errors), sum(days.fetch_errors),
  sum(days.page_loads), sum(days.page_load_ms)
FROM daily_rollups days JOIN phones ON phones.phone = days.phone
GROUP BY phones.account_id, days.day;
`;
