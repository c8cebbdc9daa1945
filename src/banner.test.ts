import path from 'node:path';
import { banner } from './banner';
import { loadConfig } from './configuration';

const URL = 'http://127.0.0.1:3000';
const line = (text: string, start: string) => text.split('\n').find((candidate) => candidate.startsWith(start));

describe('the start banner', () => {
  test('says where the rate limits and survey sessions live: this process, PostgreSQL or Redis', () => {
    const shared = (env: NodeJS.ProcessEnv) => line(banner(URL, loadConfig(env), { demo: undefined, seed: undefined }), 'Rate limits');
    expect(shared({})).toBe('Rate limits and survey sessions: in this process');
    expect(shared({ STORE: 'postgres', DATABASE_URL: 'postgres://ivr@db/ivr' })).toBe(
      'Rate limits and survey sessions: PostgreSQL, shared by every instance (REDIS_URL moves them to Redis)',
    );
    expect(shared({ STORE: 'postgres', DATABASE_URL: 'postgres://ivr@db/ivr', REDIS_URL: 'redis://cache:6379' })).toBe(
      'Rate limits and survey sessions: Redis (REDIS_URL), shared by every instance',
    );
  });

  test('names the survey handler module when SURVEY_HANDLER sets one', () => {
    const text = banner(URL, loadConfig({ SURVEY_HANDLER: './my-survey.mjs' }), { demo: undefined, seed: undefined });
    expect(line(text, 'Survey handler')).toBe('Survey handler: ./my-survey.mjs');
  });

  test('names each service of SURVEY_SERVICES with the addresses of the flavours it answers and its handler', () => {
    const services = path.join(__dirname, '..', 'examples', 'survey-services', 'services.yaml');
    const text = banner(URL, loadConfig({ SURVEY_SERVICES: services }), { demo: undefined, seed: undefined });
    expect(text.split('\n').filter((candidate) => candidate.startsWith('Survey'))).toEqual([
      `Survey web service sample WSDL: ${URL}/survey/plum?wsdl (plumEval), ${URL}/survey?wsdl (svcEval)`,
      `Survey web service sample REST: ${URL}/survey/rest`,
      "Survey web service sample handler: the sample state table ('accepted', 'accepted again', 'rejected')",
      `Survey web service consent WSDL: ${URL}/survey/consent/plum?wsdl (plumEval), ${URL}/survey/consent?wsdl (svcEval)`,
      `Survey web service consent REST: ${URL}/survey/consent/rest`,
      `Survey web service consent handler: ${path.join(path.dirname(services), 'consent.yaml')}`,
    ]);
  });

  test('says what a seed file brought', () => {
    const text = banner(URL, loadConfig({ SEED_FILE: '/srv/seed.json' }), {
      demo: undefined,
      seed: { accounts: 12, phones: 40, calls: 1_234_567, duplicates: 1 },
    });
    expect(line(text, 'Seed file')).toBe('Seed file /srv/seed.json: 12 accounts, 40 numbers, 1,234,567 calls stored (1 duplicate)');
  });

  test('warns of NODE_ENV=production without PUBLIC_URL, and of nothing otherwise', () => {
    const warnings = (env: NodeJS.ProcessEnv) =>
      banner(URL, loadConfig(env), { demo: undefined, seed: undefined })
        .split('\n')
        .filter((candidate) => candidate.startsWith('Warning: '));
    expect(warnings({ NODE_ENV: 'production' })).toEqual([
      "Warning: NODE_ENV=production without PUBLIC_URL: the survey service's WSDL takes its address from each request's Host header; " +
        'set PUBLIC_URL to the address survey systems reach',
    ]);
    expect(warnings({ NODE_ENV: 'production', PUBLIC_URL: 'https://surveys.example.com' })).toEqual([]);
    expect(warnings({ NODE_ENV: 'development' })).toEqual([]);
    expect(warnings({})).toEqual([]);
  });

  test('names, with NODE_ENV=production, the sandbox features on, and does not offer the call inspector unless it is named', () => {
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://ivr.example.com', ADMIN_TOKEN: 'a-long-enough-admin-token' };
    const quiet = banner(URL, loadConfig(production), { demo: undefined, seed: undefined });
    expect(line(quiet, 'Warning: ')).toBeUndefined();
    expect(line(quiet, 'Admin API')).toBe('Admin API: on at https://ivr.example.com/admin (Bearer ADMIN_TOKEN)');
    const sandbox = banner(URL, loadConfig({ ...production, SANDBOX_SCENARIOS: 'true', SURVEY_INSPECT_CALLS: '20' }), { demo: undefined, seed: undefined });
    expect(line(sandbox, 'Warning: ')).toBe(
      'Warning: NODE_ENV=production with sandbox features on: failure scenarios (SANDBOX_SCENARIOS=true), the call inspector (SURVEY_INSPECT_CALLS=20); ' +
        'they are for client authors: unset them unless this server is a sandbox',
    );
    expect(line(sandbox, 'Admin API')).toBe(
      'Admin API: on at https://ivr.example.com/admin (Bearer ADMIN_TOKEN); survey calls in the call inspector at https://ivr.example.com/inspector',
    );
  });

  test('says which clock the server runs: the system\'s, or one the admin API moves forward with SANDBOX_CLOCK', () => {
    const clock = (env: NodeJS.ProcessEnv) => line(banner(URL, loadConfig(env), { demo: undefined, seed: undefined }), 'Clock');
    expect(clock({})).toBe("Clock: the system's (SANDBOX_CLOCK=true lets the admin API move it forward)");
    expect(clock({ SANDBOX_CLOCK: 'true', ADMIN_TOKEN: 'a-long-enough-admin-token' })).toBe(
      'Clock: movable (SANDBOX_CLOCK): POST http://127.0.0.1:3000/admin/clock {"advance_seconds": n} moves it forward',
    );
  });

  test('warns of SURVEY_RELOAD=true without SURVEY_HANDLER, which leaves no file to reload', () => {
    const text = banner(URL, loadConfig({ SURVEY_RELOAD: 'true' }), { demo: undefined, seed: undefined });
    expect(line(text, 'Warning: ')).toBe('Warning: SURVEY_RELOAD=true without SURVEY_HANDLER: the built-in sample has no file to reload');
    const withHandler = banner(URL, loadConfig({ SURVEY_RELOAD: 'true', SURVEY_HANDLER: 'rules.yaml' }), { demo: undefined, seed: undefined });
    expect(line(withHandler, 'Warning: ')).toBeUndefined();
  });

  test('warns of SANDBOX_CLOCK=true without ADMIN_TOKEN, which leaves nothing to move the clock', () => {
    const text = banner(URL, loadConfig({ SANDBOX_CLOCK: 'TRUE' }), { demo: undefined, seed: undefined });
    expect(line(text, 'Warning: ')).toBe(
      'Warning: SANDBOX_CLOCK=true without ADMIN_TOKEN: the clock can be moved only through the admin API, which is off',
    );
  });
});
