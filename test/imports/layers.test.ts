import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

/**
 * The import rules `npm run lint` enforces with dependency-cruiser (.dependency-cruiser.cjs): each rule is
 * shown refusing what it should on a small tree of its own, laid out by a docs/architecture.md of its own,
 * and every module of src/ is shown to be in one layer of the real one.
 */

const ROOT = path.resolve(__dirname, '../..');
const CRUISER = path.join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS module the cruiser's configuration reads the layers with
const { readLayers, holds } = require('../../scripts/layers.cjs') as {
  readLayers: (file: string) => { layers: { number: number; paths: string[] }[] };
  holds: (layerPath: string, file: string) => boolean;
};

interface Violation {
  readonly rule: string;
  readonly from: string;
  readonly to: string;
}

interface CruiseOutput {
  readonly summary: { readonly violations: readonly { rule: { name: string }; from: string; to: string }[] };
}

/** What dependency-cruiser, with the project's configuration, refuses in a tree of files under a folder of its own. */
async function violationsIn(files: Readonly<Record<string, string>>): Promise<Violation[]> {
  const folder = mkdtempSync(path.join(tmpdir(), 'layers-'));
  try {
    for (const [name, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
      writeFileSync(path.join(folder, name), text);
    }
    mkdirSync(path.join(folder, 'scripts'));
    copyFileSync(path.join(ROOT, '.dependency-cruiser.cjs'), path.join(folder, '.dependency-cruiser.cjs'));
    copyFileSync(path.join(ROOT, 'scripts/layers.cjs'), path.join(folder, 'scripts/layers.cjs'));
    writeFileSync(path.join(folder, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'commonjs', moduleResolution: 'node' } }));
    const args = [CRUISER, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'];
    // The cruiser exits non-zero when it finds a violation; its report is on stdout either way.
    const stdout = await promisify(execFile)(process.execPath, args, { cwd: folder }).then(
      (result) => result.stdout,
      (error: { stdout?: string }) => {
        if (error.stdout === undefined || error.stdout === '') throw error;
        return error.stdout;
      },
    );
    const output = JSON.parse(stdout) as CruiseOutput;
    return output.summary.violations
      .map((violation) => ({ rule: violation.rule.name, from: violation.from, to: violation.to }))
      .sort((a, b) => `${a.rule} ${a.from}`.localeCompare(`${b.rule} ${b.from}`));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** An architecture document with the given rows of its "Layers" table and declared upward imports. */
function architecture(rows: readonly string[], declared: readonly string[] = []): string {
  return [
    '# Architecture',
    '',
    '## Layers',
    '',
    '| layer | folders | what they hold |',
    '|---|---|---|',
    ...rows,
    '',
    `Declared upward imports:${declared.length === 0 ? ' none.' : ''}`,
    ...declared,
    '',
    '## Next',
    '',
  ].join('\n');
}

const TWO_LAYERS = architecture(['| 1 | `src/low/` | below |', '| 2 | `src/high/`, `src/side/`, `src/*.ts` | above |']);

describe('the import rules', () => {
  test('refuse a module that imports from a layer above its own, by types alone too', async () => {
    const violations = await violationsIn({
      'docs/architecture.md': TWO_LAYERS,
      'src/high/shape.ts': 'export interface Shape { readonly side: number }\n',
      'src/low/unit.ts': "import type { Shape } from '../high/shape';\nexport const unit = 1;\nexport type Unit = Shape;\n",
      'src/main.ts': "import { unit } from './low/unit';\nexport const shown = unit;\n",
    });
    expect(violations).toEqual([{ rule: 'layer-1-imports-upward', from: 'src/low/unit.ts', to: 'src/high/shape.ts' }]);
  });

  test('let through an upward import that the architecture declares', async () => {
    const violations = await violationsIn({
      'docs/architecture.md': architecture(['| 1 | `src/low/` | below |', '| 2 | `src/high/` | above |'], ['- `src/low/unit.ts` -> `src/high/shape.ts`: why']),
      'src/high/shape.ts': 'export interface Shape { readonly side: number }\n',
      'src/low/unit.ts': "import type { Shape } from '../high/shape';\nexport type Unit = Shape;\n",
    });
    expect(violations).toEqual([]);
  });

  test('refuse a circle of modules, type imports included', async () => {
    const violations = await violationsIn({
      'docs/architecture.md': TWO_LAYERS,
      'src/high/a.ts': "import type { B } from './b';\nexport interface A { readonly b?: B }\n",
      'src/high/b.ts': "import type { A } from './a';\nexport interface B { readonly a?: A }\n",
    });
    // One violation names the circle: the cruiser reports it from the first module it meets on it.
    expect(violations).toEqual([{ rule: 'no-circular', from: 'src/high/a.ts', to: 'src/high/b.ts' }]);
  });

  test('refuse two folders of one layer whose modules import each other, without a circle of modules', async () => {
    const violations = await violationsIn({
      'docs/architecture.md': TWO_LAYERS,
      'src/high/first.ts': "import { third } from '../side/third';\nexport const first = third + 1;\n",
      'src/high/second.ts': 'export const second = 2;\n',
      'src/side/third.ts': 'export const third = 3;\n',
      'src/side/fourth.ts': "import { second } from '../high/second';\nexport const fourth = second + 2;\n",
    });
    expect(violations.map(({ rule, from, to }) => `${rule}: ${from} -> ${to}`)).toEqual(['no-circular-folders: src/high -> src/side', 'no-circular-folders: src/side -> src/high']);
  });

  test('refuse a module whose folder is in no layer', async () => {
    const violations = await violationsIn({
      'docs/architecture.md': TWO_LAYERS,
      'src/low/unit.ts': 'export const unit = 1;\n',
      'src/elsewhere/stray.ts': "import { unit } from '../low/unit';\nexport const stray = unit;\n",
    });
    expect(violations).toEqual([{ rule: 'in-no-layer', from: 'src/elsewhere/stray.ts', to: 'src/low/unit.ts' }]);
  });
});

describe("docs/architecture.md's layers", () => {
  /** Every module of src/ that the rules apply to: not a test, not the typed client (a package of its own), not a fixture. */
  function modules(folder = 'src'): string[] {
    return readdirSync(path.join(ROOT, folder), { withFileTypes: true }).flatMap((entry) => {
      const file = `${folder}/${entry.name}`;
      if (entry.isDirectory()) return file === 'src/client' || entry.name === 'fixtures' ? [] : modules(file);
      return /\.(ts|js|mjs)$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) ? [file] : [];
    });
  }

  test('hold every module of src/ in exactly one layer', () => {
    const { layers } = readLayers(path.join(ROOT, 'docs/architecture.md'));
    const misplaced = modules()
      .map((file) => ({ file, layers: layers.filter((layer) => layer.paths.some((layerPath) => holds(layerPath, file))).map((layer) => layer.number) }))
      .filter((placed) => placed.layers.length !== 1);
    expect(misplaced).toEqual([]);
  });
});
