#!/usr/bin/env node
/* global process */
/*
 * The `ivr-reporting` command (package.json "bin"), so that `npx ivr-reporting` works in a clone. It
 * runs the TypeScript sources through tsx when tsx (a development dependency) is installed, so the
 * command always matches the code beside it, built or not; otherwise it runs the build in dist/.
 */
import { existsSync } from 'node:fs';
import { URL } from 'node:url';

const source = new URL('../src/cli/main.ts', import.meta.url);
const built = new URL('../dist/cli/main.js', import.meta.url);

/** Importing tsx registers its loaders, as `node --import tsx` does. */
async function registerTsx() {
  try {
    await import('tsx');
    return true;
  } catch {
    return false;
  }
}

if (existsSync(source) && (await registerTsx())) {
  await import(source.href);
} else if (existsSync(built)) {
  await import(built.href);
} else {
  process.stderr.write('ivr-reporting: neither tsx nor a build is here; run `npm ci`, or `npm run build`\n');
  process.exitCode = 1;
}
