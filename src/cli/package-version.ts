import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The package's own version: src/cli and dist/cli are both two folders below package.json. */
export function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { version: string };
  return manifest.version;
}
