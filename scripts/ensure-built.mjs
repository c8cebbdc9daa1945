/* global process, URL */
/*
 * `npm ci` (prepare) and `npm start` (prestart): dist/ brought up to date with src/ where TypeScript is
 * installed. An install without the dev dependencies (`npm prune --omit=dev`, or npx installing this
 * checkout to run its bin) has no TypeScript: there dist/ runs as it was built, and must have been. So
 * does a release's package installed from its tarball, which ships dist/ and not the sources: a TypeScript
 * its consumer's project installed has nothing to build there.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function typescriptCompiler() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

const tsc = existsSync(new URL('../tsconfig.build.json', import.meta.url)) ? typescriptCompiler() : undefined;
if (tsc !== undefined) {
  const build = spawnSync(process.execPath, [tsc, '-b', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
  process.exitCode = build.status ?? 1;
} else if (!existsSync(new URL('../dist/main.js', import.meta.url))) {
  process.stderr.write('ivr-reporting: dist/ is not built, and TypeScript is not installed to build it: run `npm ci` with the dev dependencies first\n');
  process.exitCode = 1;
}
