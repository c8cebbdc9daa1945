import type { Pool, QueryResultRow } from 'pg';

/** One statement of a report's reads, named so that each connection parses and plans it once. */
export interface NamedRead {
  readonly name: string;
  readonly text: string;
  readonly values: readonly unknown[];
}

/** Where a report's statements run: the primary, or a replica that holds what the report has seen. */
export type RowReads = <Row extends QueryResultRow>(read: NamedRead) => Promise<Row[]>;

/** Reads on the pool of the primary. */
export function readsOn(pool: Pool): RowReads {
  return async <Row extends QueryResultRow>({ name, text, values }: NamedRead) => (await pool.query<Row>({ name, text, values: [...values] })).rows;
}
