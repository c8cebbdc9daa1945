#!/usr/bin/env node
/* global process */
/*
 * The `ivr-reporting` command (package.json "bin"), so that `npx ivr-reporting` works in a clone. It runs
 * the compiled JavaScript in dist/, which `npm ci` builds (the "prepare" script) and `npm run build`
 * brings up to date after a change to src/.
 */
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

const built = new URL('../dist/cli/main.js', import.meta.url);

if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write('ivr-reporting: dist/ is not built; run `npm run build` (or `npm ci`) in the project folder\n');
  process.exitCode = 1;
}
