/**
 * Text in UTF-16 code-unit order: the same in every process, locale and store, unlike localeCompare,
 * so that reports list names alike everywhere and concurrent writers lock rows in one order.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
