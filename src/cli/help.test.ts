import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { CLI_BIN, runCli, scratchFolder } from '../../test/support/cli';

const COMMANDS = [
  [],
  ['serve'],
  ['import'],
  ['accounts'],
  ['accounts', 'add'],
  ['accounts', 'set'],
  ['accounts', 'list'],
  ['accounts', 'revoke'],
  ['accounts', 'delete'],
  ['phones'],
  ['phones', 'add'],
  ['phones', 'remove'],
  ['scenario'],
  ['scenario', 'add'],
  ['scenario', 'list'],
  ['scenario', 'remove'],
  ['retention'],
  ['mirror'],
  ['demo'],
];

describe('ivr-reporting --help', () => {
  test.each(COMMANDS.map((command) => [command.join(' ') || '(no command)', command]))('describes %s', async (_name, command) => {
    const help = await runCli([...command, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^Usage: ivr-reporting${command.map((word) => ` ${word}`).join('')} `));
  });

  test('lists the commands and fits an 80-column terminal', async () => {
    const help = await runCli(['--help'], { env: { COLUMNS: '80' } });
    expect(help.stdout).toMatch(/^Usage: ivr-reporting \[options\] \[command\]\n/);
    expect(help.stdout).toContain('import [options] <file>');
    expect(help.stdout.split('\n').filter((line) => line.length > 80)).toEqual([]);
  });
});

describe('ivr-reporting --version', () => {
  test("prints package.json's version", async () => {
    const { version } = JSON.parse(await readFile(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version: string };
    expect(await runCli(['--version'])).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });
});

describe('the package bin', () => {
  test('says how to build when dist/ is missing, and exits 1', async () => {
    const folder = await scratchFolder();
    try {
      const bin = path.join(folder.path, 'bin/ivr-reporting.mjs');
      await mkdir(path.dirname(bin));
      await copyFile(CLI_BIN, bin);
      expect(await runCli(['--help'], { bin })).toEqual({
        code: 1,
        stdout: '',
        stderr: 'ivr-reporting: dist/ is not built; run `npm run build` (or `npm ci`) in the project folder\n',
      });
    } finally {
      await folder.remove();
    }
  });
});
