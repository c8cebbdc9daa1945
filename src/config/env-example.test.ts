import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONFIG_VARIABLES, loadConfig } from '../configuration';

const example = readFileSync(path.join(__dirname, '..', '..', '.env.example'), 'utf8');
const assignments = example
  .split('\n')
  .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
  .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);

describe('.env.example', () => {
  test('lists every variable the server reads, once, and nothing else', () => {
    const names = assignments.map(([name]) => name);
    expect([...names].sort()).toEqual([...CONFIG_VARIABLES].sort());
  });

  test('gives each variable its real default (a blank line means unset)', () => {
    expect(loadConfig(Object.fromEntries(assignments))).toEqual(loadConfig({}));
  });

  test('copied with NODE_ENV=production, turns no sandbox feature on: it names none', () => {
    const production = { ...Object.fromEntries(assignments), NODE_ENV: 'production', ADMIN_TOKEN: 'a-long-enough-admin-token' };
    expect(loadConfig(production).sandbox).toEqual({ movableClock: false, scenarios: { enabled: false, mostActive: 100 }, inspectCalls: 0 });
  });
});
