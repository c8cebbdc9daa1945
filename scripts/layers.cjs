/**
 * The layers of src/ as docs/architecture.md declares them in its "Layers" section: a table of numbered
 * layers, each with its folders (`src/x/`, a folder and all below it; `src/*.ts`, the root's own files),
 * and a list of declared upward imports (`- \`from\` -> \`to\``). Read by .dependency-cruiser.cjs, which
 * enforces them, and by the test of that enforcement.
 */
const { readFileSync } = require('node:fs');

/** The text under a `## title` heading, up to the next heading of that level. */
function section(markdown, title, file) {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`${file} has no "## ${title}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

/** The layers, lowest first, and the declared upward imports, of the architecture document at `file`. */
function readLayers(file) {
  const text = section(readFileSync(file, 'utf8'), 'Layers', file);
  const layers = [...text.matchAll(/^\| *(\d+) *\|([^|]*)\|/gm)]
    .map(([, number, cell]) => ({ number: Number(number), paths: [...cell.matchAll(/`([^`]+)`/g)].map(([, path]) => path) }))
    .sort((a, b) => a.number - b.number);
  if (layers.length === 0) throw new Error(`${file}'s "Layers" section has no layer rows`);
  const declared = [...(text.split('Declared upward imports')[1] ?? '').matchAll(/^- `([^`]+)` -> `([^`]+)`/gm)].map(([, from, to]) => ({ from, to }));
  return { layers, declared };
}

/** Whether a layer's path (`src/x/`, `src/*.ts` or a file) holds the repository-relative `file`. */
function holds(layerPath, file) {
  if (layerPath === 'src/*.ts') return /^src\/[^/]+\.ts$/.test(file);
  return layerPath.endsWith('/') ? file.startsWith(layerPath) : file === layerPath;
}

module.exports = { readLayers, holds };
