/** Debian's chromium, which `.ci/run` installs; CHROMIUM_PATH points elsewhere on other machines. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
