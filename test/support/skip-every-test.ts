/**
 * Reports every test of the file as skipped. A jest project may load more than one setup file that calls
 * this (the PgBouncer project loads the PostgreSQL one too); only the first may replace `test` and `it`,
 * since the replacements have no `.skip` of their own. The setup files of one test file share this module.
 */
let skipping = false;

export function skipEveryTest(): void {
  if (skipping) return;
  skipping = true;
  globalThis.test = test.skip;
  globalThis.it = it.skip;
}
