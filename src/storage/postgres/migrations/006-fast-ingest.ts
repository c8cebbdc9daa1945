/**
 * Cheaper writes, for imports and for every request of the reporting API.
 *
 * Rate-limit counters become UNLOGGED: they write no WAL, so a request's hit no longer waits for the
 * WAL to reach the disk at its commit. After a crash PostgreSQL empties the table (and a standby does not
 * have it), which only starts the windows afresh: counters are worth less than a flush per request.
 *
 * A call's path moves onto its calls row, as the ids of its form items in path order and a (steps x 6)
 * array of their counters (in PATH_STEP_COUNTERS order), instead of one call_path row and index entry
 * per entry. Nullable columns without a default: no table rewrite. Paths already stored stay in
 * call_path, which only a rollup rebuild reads; nothing is written there any more.
 */
export const fastIngest = `
ALTER TABLE rate_limit_windows SET UNLOGGED;

ALTER TABLE calls
  ADD COLUMN path_form_item_ids bigint[],
  ADD COLUMN path_counters integer[];
`;
