/**
 * The import rules of src/, enforced by `npm run lint` (and so by `npm test`). The layers are declared
 * once, in docs/architecture.md's "Layers" table, and read from there: a folder's modules import their own
 * layer and the layers below, never one above, unless the table's "Declared upward imports" names the
 * pair; no module circle and no folder circle, type imports included.
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const ARCHITECTURE = join(__dirname, 'docs/architecture.md');

/** The text under a `## title` heading, up to the next heading of that level. */
function section(markdown, title) {
  const start = markdown.indexOf(`\n## ${title}\n`);
  if (start === -1) throw new Error(`docs/architecture.md has no "## ${title}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end === -1 ? undefined : end);
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A path of the table (`src/x/`, a folder and all below it; `src/*.ts`, the root's own files) as a regular expression. */
function pattern(path) {
  if (path === 'src/*.ts') return '^src/[^/]+\\.ts$';
  if (path.endsWith('/')) return `^${escape(path)}`;
  return `^${escape(path)}$`;
}

/** The layers, lowest first: each a number and the paths in it. */
function layersOf(markdown) {
  const rows = [...section(markdown, 'Layers').matchAll(/^\| *(\d+) *\|([^|]*)\|/gm)];
  const layers = rows.map(([, number, cell]) => ({ number: Number(number), paths: [...cell.matchAll(/`([^`]+)`/g)].map(([, path]) => path) }));
  if (layers.length === 0) throw new Error('docs/architecture.md\'s "Layers" section has no layer rows');
  return layers.sort((a, b) => a.number - b.number);
}

/** The declared upward imports: `from` -> `to` pairs of paths, in the "Declared upward imports" list. */
function declaredUpwardImports(markdown) {
  const list = section(markdown, 'Layers').split('Declared upward imports')[1] ?? '';
  return [...list.matchAll(/^- `([^`]+)` -> `([^`]+)`/gm)].map(([, from, to]) => ({ from, to }));
}

const markdown = readFileSync(ARCHITECTURE, 'utf8');
const layers = layersOf(markdown);
const declared = declaredUpwardImports(markdown);
const alternatives = (paths) => paths.map(pattern).join('|');

const upwardRules = layers.slice(0, -1).map((layer, index) => {
  const above = layers.slice(index + 1).flatMap((higher) => higher.paths);
  const exceptions = declared.filter(({ from }) => layer.paths.includes(from) || layer.paths.some((path) => path.endsWith('/') && from.startsWith(path)));
  return {
    name: `layer-${layer.number}-imports-upward`,
    comment: `a module of layer ${layer.number} (${layer.paths.join(', ')}) imports from a higher layer; move the code, or declare the import in docs/architecture.md's "Layers"`,
    severity: 'error',
    from: { path: alternatives(layer.paths), pathNot: '\\.test\\.ts$' },
    to: {
      path: alternatives(above),
      ...(exceptions.length === 0 ? {} : { pathNot: alternatives(exceptions.map(({ to }) => to)) }),
    },
  };
});

const everyPath = layers.flatMap((layer) => layer.paths);

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'modules that import each other, even through others or by types alone, cannot be read, changed or moved one without the other',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      comment: 'two folders whose modules import each other, even through other folders: the layers have a circle in them',
      severity: 'error',
      scope: 'folder',
      from: { pathNot: '\\.test\\.ts$' },
      to: { circular: true },
    },
    {
      name: 'in-no-layer',
      comment: 'a module of src/ in no layer of docs/architecture.md\'s "Layers": add its folder to the table',
      severity: 'error',
      from: { path: '^src/', pathNot: `${alternatives(everyPath)}|\\.test\\.ts$|^src/client/` },
      to: {},
    },
    ...upwardRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/client/|\\.test\\.ts$|/fixtures/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
  },
};
