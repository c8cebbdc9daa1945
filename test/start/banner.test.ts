import { banner } from '../../src/banner';
import { loadConfig } from '../../src/config/config';

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

  test('says what a seed file brought', () => {
    const text = banner(URL, loadConfig({ SEED_FILE: '/srv/seed.json' }), {
      demo: undefined,
      seed: { accounts: 12, phones: 40, calls: 1_234_567, duplicates: 1 },
    });
    expect(line(text, 'Seed file')).toBe('Seed file /srv/seed.json: 12 accounts, 40 numbers, 1,234,567 calls stored (1 duplicate)');
  });
});
