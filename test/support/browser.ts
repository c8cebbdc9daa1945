import { mkdirSync } from 'node:fs';
import path from 'node:path';
import puppeteer, { type Browser } from 'puppeteer-core';
import { chromiumAvailable, chromiumPath } from './chromium';

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

/** `describe` when Chromium is installed or CI insists on it, `describe.skip` otherwise. */
export const describeInBrowser: jest.Describe = chromiumAvailable || process.env.CI === 'true' ? describe : describe.skip;
