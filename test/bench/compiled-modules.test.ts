import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The benches load the server's modules compiled (`compiled<typeof M>('x/y')` reads `dist/x/y.js`) and take
 * their types from `import type * as M from '../src/x/y'`. The name is a string the type checker cannot
 * follow, so a module that moves would leave a bench that fails only when it is run: this holds each name
 * to its type import, and each to a module of src/.
 */

const BENCH = path.resolve(__dirname, '../../bench');
const ROOT = path.resolve(__dirname, '../..');

interface Load {
  readonly file: string;
  readonly name: string;
  readonly typeImport: string | undefined;
}

function loadsOf(file: string): Load[] {
  const text = readFileSync(path.join(BENCH, file), 'utf8');
  const typeImports = new Map([...text.matchAll(/import type \* as (\w+) from '\.\.\/src\/([^']+)';/g)].map(([, alias, module]) => [alias as string, module as string]));
  return [...text.matchAll(/compiled<typeof (\w+)>\('([^']+)'\)/g)].map(([, alias, name]) => ({ file, name: name as string, typeImport: typeImports.get(alias as string) }));
}

describe("the benches' compiled modules", () => {
  const loads = readdirSync(BENCH)
    .filter((file) => file.endsWith('.ts'))
    .flatMap(loadsOf);

  test('are each named as their type import names them, and are modules of src/', () => {
    expect(loads.length).toBeGreaterThan(30);
    const wrong = loads.filter(({ name, typeImport }) => typeImport !== name || !existsSync(path.join(ROOT, 'src', `${name}.ts`)));
    expect(wrong).toEqual([]);
  });
});
