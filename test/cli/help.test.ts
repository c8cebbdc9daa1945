import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { runCli } from './support';

const run = promisify(execFile);

const COMMANDS = [
  [],
  ['serve'],
  ['import'],
  ['accounts'],
  ['accounts', 'add'],
  ['accounts', 'set'],
  ['accounts', 'list'],
  ['phones'],
  ['phones', 'add'],
  ['phones', 'remove'],
  ['demo'],
];

describe('ivr-reporting --help', () => {
  test.each(COMMANDS.map((command) => [command.join(' ') || '(no command)', command]))('describes %s', async (_name, command) => {
    const help = await runCli([...command, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(new RegExp(`^Usage: ivr-reporting${command.map((word) => ` ${word}`).join('')} `));
  });

  test('runs from the package bin, as npx ivr-reporting does in a clone', async () => {
    const { stdout } = await run(process.execPath, [path.resolve(__dirname, '../../bin/ivr-reporting.mjs'), '--help']);
    expect(stdout).toMatch(/^Usage: ivr-reporting \[options\] \[command\]\n/);
    expect(stdout).toContain('import [options] <file>');
  });
});
