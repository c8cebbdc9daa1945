/**
 * A call's id and number compared byte for byte ("C") rather than by the database's language: an import
 * inserts every call into the two indexes of calls, and with a language each comparison on the way down
 * went through the locale's collation, the largest single cost of an insert. Nothing orders calls by
 * these texts for a reader, and the ingest already sorts a batch by call id in this order. Only the
 * collation changes, so the table is not rewritten; its two indexes are rebuilt.
 */
export const callKeysByBytes = `
ALTER TABLE calls
  ALTER COLUMN call_id TYPE text COLLATE "C",
  ALTER COLUMN phone TYPE text COLLATE "C";
`;
