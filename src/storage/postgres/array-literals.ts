/**
 * PostgreSQL array literals (`{1,2,3}`), built here and passed as text, because pg turns an array
 * parameter into one by quoting and escaping every element, numbers included: at thousands of calls a
 * batch and a column each, that was a good part of an import's time in this process.
 */

/** Whole numbers only: JavaScript writes them as PostgreSQL reads an integer or a bigint. */
export const integerArray = (values: readonly number[]): string => `{${values.join(',')}}`;

const NEEDS_ESCAPE = /[\\"]/;

/** Every element quoted, so that commas, braces, spaces and the word NULL stay text; undefined is NULL. */
export function textArray(values: readonly (string | undefined)[]): string {
  const elements = values.map((value) => {
    if (value === undefined) return 'NULL';
    return `"${NEEDS_ESCAPE.test(value) ? value.replace(/[\\"]/g, '\\$&') : value}"`;
  });
  return `{${elements.join(',')}}`;
}
