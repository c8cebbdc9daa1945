import { mkdirSync } from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumPath } from './chromium';
import { CHROMIUM, describeWith } from './real-programs';

/** Where the browser suites leave their screenshots: CI output, ignored by git. */
export const screenshotDirectory = path.resolve(__dirname, '../../.ci/tmp/screenshots');

/** A headless Chromium of its own for one suite; close it in afterAll. */
export async function launchBrowser(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: chromiumPath,
    headless: true,
    // Root in containers has no user namespace for Chromium's sandbox; /dev/shm is small there too.
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu', '--no-first-run'],
  });
}

export function screenshotPath(name: string): string {
  mkdirSync(screenshotDirectory, { recursive: true });
  return path.join(screenshotDirectory, `${name}.png`);
}

/** `describe` when Chromium is installed, `describe.skip` otherwise (CI fails at once without it: the global set-up). */
export const describeInBrowser = describeWith(CHROMIUM);
