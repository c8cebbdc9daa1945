/**
 * What in an answer shows the server's insides: a stack trace's frames, a path of its files. Each
 * alternative has a shape that a request's own text, which an error may quote, does not take by chance.
 */
const LEAK = new RegExp(
  [
    // A stack's frame lines, and one frame's place: `(file:line:column)`.
    String.raw`\n\s+at `,
    String.raw`\(\S+:\d+:\d+\)`,
    // A source file's line, a dependency's folder, or a folder this server's files are kept under.
    String.raw`\.[jt]s:\d+`,
    'node_modules',
    String.raw`/(?:work|home|srv)/`,
    // A Windows path: a drive, a folder and a separator after it, as `C:\Users\x`.
    String.raw`\b[A-Za-z]:\\[A-Za-z][^\\\s]*\\`,
  ].join('|'),
);

/** Every string of a JSON value, keys too, as a reader sees them: unescaped. */
function jsonStrings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(jsonStrings);
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => [key, ...jsonStrings(item)]);
  return [];
}

/**
 * The texts of a body as its reader sees them: each string of a JSON body, unescaped, so that an escaped
 * quote (`H:\"`) reads as the quote it is and an escaped backslash as one; any other body as it is.
 */
function readableTexts(body: string): string[] {
  try {
    return jsonStrings(JSON.parse(body));
  } catch {
    return [body];
  }
}

/** The first stack frame or file path in the answer's body, or undefined. */
export function leakIn(body: string): string | undefined {
  for (const text of readableTexts(body)) {
    const found = LEAK.exec(text);
    if (found !== null) return found[0];
  }
  return undefined;
}
