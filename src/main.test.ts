import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/*
 * `npm start` runs dist/main.js: the server, unless its arguments ask for the help or the version, or are
 * ones it does not take. A regression here would start a server instead, on a free port of loopback; the
 * run's timeout ends it.
 */

const ROOT = path.resolve(__dirname, '..');
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const HELP = `Usage: npm start [options]

run the server (npm start and node dist/main.js run the same); configured by the
environment variables of .env.example, each described in docs/configuration.md

Options:
  -V, --version  print the version
  -h, --help     display help for command
`;

function main(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['dist/main.js', ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: '0', DEMO_DATA: 'false' }, timeout: 50_000 },
      (error, stdout, stderr) => resolve({ code: typeof error?.code === 'number' ? error.code : error === null ? 0 : -1, stdout, stderr }),
    );
  });
}

describe('node dist/main.js (npm start) with arguments', () => {
  test.each([['--help'], ['-h']])('%s prints the help and exits 0, starting no server', async (flag) => {
    expect(await main([flag])).toEqual({ code: 0, stdout: HELP, stderr: '' });
  });

  test.each([['--version'], ['-V']])("%s prints the package's version and exits 0", async (flag) => {
    expect(await main([flag])).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  test('an option it does not take is refused with the help, exit code 1, and no server', async () => {
    expect(await main(['--port', '3000'])).toEqual({ code: 1, stdout: '', stderr: `error: unknown option '--port'\n\n${HELP}` });
  });

  test('an argument is refused with the help, exit code 1, and no server', async () => {
    expect(await main(['serve'])).toEqual({ code: 1, stdout: '', stderr: `error: too many arguments. Expected 0 arguments but got 1.\n\n${HELP}` });
  });
});
