/**
 * The import rules of src/, enforced by `npm run lint` (and so by `npm test`) on every module but the tests: the layers that
 * docs/architecture.md declares in its "Layers" section (scripts/layers.cjs reads them) and no circle,
 * of modules or of folders, type imports included. test/imports/layers.test.ts
 * shows each rule refusing what it should.
 */
const { join } = require('node:path');
const { readLayers } = require('./scripts/layers.cjs');

const { layers, declared } = readLayers(join(__dirname, 'docs/architecture.md'));

const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A layer's path as the regular expression dependency-cruiser matches module paths with. */
const pattern = (path) => (path === 'src/*.ts' ? '^src/[^/]+\\.ts$' : path.endsWith('/') ? `^${escapeRegExp(path)}` : `^${escapeRegExp(path)}$`);
const anyOf = (paths) => paths.map(pattern).join('|');
const TESTS = '\\.test\\.ts$';

const upwardRules = layers.slice(0, -1).map((layer, index) => {
  const exceptions = declared.filter(({ from }) => new RegExp(anyOf(layer.paths)).test(from));
  return {
    name: `layer-${layer.number}-imports-upward`,
    comment: `a module of layer ${layer.number} (${layer.paths.join(', ')}) imports from a layer above it: move the code down, or declare the import in docs/architecture.md's "Layers"`,
    severity: 'error',
    from: { path: anyOf(layer.paths) },
    to: {
      path: anyOf(layers.slice(index + 1).flatMap((higher) => higher.paths)),
      ...(exceptions.length === 0 ? {} : { pathNot: anyOf(exceptions.map(({ to }) => to)) }),
    },
  };
});

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
      comment: "folders whose modules import each other, even through other folders: a circle in the layers; move the shared part down",
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'in-no-layer',
      comment: `a module of src/ in no layer: add its folder to docs/architecture.md's "Layers"`,
      severity: 'error',
      from: { path: '^src/', pathNot: anyOf(layers.flatMap((layer) => layer.paths)) },
      to: {},
    },
    ...upwardRules,
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // The typed client is a package of its own that imports nothing of the server; fixtures are handlers' test modules.
    exclude: { path: `^src/client/|/fixtures/|${TESTS}` },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
