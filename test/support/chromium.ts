import { existsSync } from 'node:fs';

/** Debian's chromium, which `.ci/run` installs; CHROMIUM_PATH points elsewhere on other machines. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Whether the browser suites can run here; under CI=true a missing browser fails the run instead. */
export const chromiumAvailable = existsSync(chromiumPath);
