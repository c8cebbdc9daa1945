import path from 'node:path';
import { runCli } from '../test/support/cli';
import { packageVersion } from './cli/package-version';

/*
 * `npm start` runs dist/main.js: the server, unless its arguments ask for the help or the version, or are
 * ones it does not take. A regression here would start a server instead, on a free port of loopback.
 */

const MAIN = path.resolve(__dirname, '../dist/main.js');
const VERSION = packageVersion();

const HELP = `Usage: npm start [options]

run the server (npm start and node dist/main.js run the same); configured by the
environment variables of .env.example, each described in docs/configuration.md

Options:
  -V, --version  print the version
  -h, --help     display help for command
`;

/** `node dist/main.js ARGS`, as the CLI's tests run the bin. */
const main = (args: readonly string[]) => runCli(args, { bin: MAIN, env: { HOST: '127.0.0.1', PORT: '0', DEMO_DATA: 'false' } });

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
