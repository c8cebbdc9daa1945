/** A count as the command-line tool prints it: digits grouped, `12,345`. */
export const count = (value: number): string => value.toLocaleString('en-US');

/** A count and its noun, plural unless it is one: `1 record`, `12,345 records`. */
export const plural = (value: number, noun: string): string => `${count(value)} ${noun}${value === 1 ? '' : 's'}`;
