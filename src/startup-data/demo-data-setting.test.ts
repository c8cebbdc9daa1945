import { banner } from '../banner';
import { start, type Started } from '../composition-root';
import { ConfigError } from '../config/config-error';
import { createTestSchema, describeWithPostgres, type TestSchema } from '../../test/support/services';
import { PUBLIC_DEMO_ACCOUNT_WARNING } from './demo/demo-account';

/*
 * DEMO_DATA at start, on each store: the demo account is created outside production and, in production,
 * only when DEMO_DATA=true says so, which the banner then names.
 */

const QUIET = { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'silent', PUBLIC_URL: '' };
const PRODUCTION_WARNING = 'Warning: NODE_ENV=production with DEMO_DATA=true: the demo account dev/demo';

let started: Started | undefined;
const schemas: TestSchema[] = [];

afterEach(async () => {
  await started?.stop();
  started = undefined;
  for (const schema of schemas.splice(0)) await schema.drop();
});

/** The status of POST /api/auth with the demo account's published login. */
async function demoLogin({ running }: Started): Promise<number> {
  const body = new URLSearchParams({ tool: 'dev', login: 'demo', password: 'demo-password' });
  return (await fetch(`${running.url}/api/auth`, { method: 'POST', body })).status;
}

function bannerOf(server: Started): string {
  return banner(server.running.url, server.config, server);
}

/** The suite on one store; `storeEnv` gives the variables of a fresh, empty one. */
function describeDemoData(storeName: string, storeEnv: () => Promise<NodeJS.ProcessEnv>): void {
  describe(`the demo data on the ${storeName} store`, () => {
    test('are not created with NODE_ENV=production and DEMO_DATA unset: the demo login answers 401', async () => {
      started = await start({ ...QUIET, ...(await storeEnv()), NODE_ENV: 'production', PUBLIC_URL: 'https://ivr.example.com' });
      expect(started.demo).toBeUndefined();
      expect(await demoLogin(started)).toBe(401);
      expect(await started.store.accounts.list()).toEqual([]);
      const text = bannerOf(started);
      expect(text).not.toContain('with demo data');
      expect(text).not.toContain('Demo account:');
      expect(text).not.toContain('Warning:');
    });

    test('are created with NODE_ENV=production and DEMO_DATA=true, which the banner names', async () => {
      started = await start({ ...QUIET, ...(await storeEnv()), NODE_ENV: 'production', PUBLIC_URL: 'https://ivr.example.com', DEMO_DATA: 'true' });
      expect(started.demo).toBeDefined();
      expect(await demoLogin(started)).toBe(200);
      const text = bannerOf(started);
      expect(text).toContain('with demo data)');
      expect(text).toContain('Demo account: tool=dev login=demo password=demo-password');
      expect(text.split('\n').filter((line) => line.startsWith('Warning:'))).toEqual([
        `${PRODUCTION_WARNING}, whose password demo-password is published, is created with its calls when the store lacks it; ` +
          'unset DEMO_DATA unless this server is a sandbox',
      ]);
    });

    test('are created outside production with DEMO_DATA unset, and not with DEMO_DATA=false', async () => {
      const env = { ...QUIET, ...(await storeEnv()) };
      started = await start(env);
      expect(started.demo).toBeDefined();
      expect(await demoLogin(started)).toBe(200);
      expect(bannerOf(started)).not.toContain('Warning:');
      await started.stop();
      started = await start({ ...QUIET, ...(await storeEnv()), DEMO_DATA: 'false' });
      expect(started.demo).toBeUndefined();
      expect(await demoLogin(started)).toBe(401);
    });
  });
}

describeDemoData('in-memory', () => Promise.resolve({}));

describeWithPostgres('PostgreSQL', () => {
  const freshSchema = async (): Promise<NodeJS.ProcessEnv> => {
    const schema = await createTestSchema();
    schemas.push(schema);
    return { STORE: 'postgres', DATABASE_URL: schema.url, DATABASE_POOLER: schema.pooler };
  };
  describeDemoData('PostgreSQL', freshSchema);

  test('a production start warns of the demo account an earlier start left, until the admin API deletes it', async () => {
    const database = await freshSchema();
    started = await start({ ...QUIET, ...database });
    expect(started.demo).toBeDefined();
    await started.stop();

    const production = { ...QUIET, ...database, NODE_ENV: 'production', PUBLIC_URL: 'https://ivr.example.com', ADMIN_TOKEN: 'a-long-enough-admin-token' };
    started = await start(production);
    expect(started.demo).toBeUndefined();
    expect(await demoLogin(started)).toBe(200);
    expect(bannerOf(started).split('\n').filter((line) => line.startsWith('Warning:'))).toEqual([`Warning: ${PUBLIC_DEMO_ACCOUNT_WARNING}`]);
    expect(PUBLIC_DEMO_ACCOUNT_WARNING).toBe(
      'the demo account dev/demo is stored with its published password demo-password, though the demo data are off: ' +
        'delete it with "ivr-reporting accounts delete dev demo" (DELETE /admin/accounts/dev/demo)',
    );
    const deleted = await fetch(`${started.running.url}/admin/accounts/dev/demo`, { method: 'DELETE', headers: { authorization: 'Bearer a-long-enough-admin-token' } });
    expect(deleted.status).toBe(204);
    expect(await demoLogin(started)).toBe(401);
    await started.stop();

    started = await start(production);
    expect(started.dataWarnings).toEqual([]);
    expect(await demoLogin(started)).toBe(401);
  });
});

test('a DEMO_DATA that is neither true nor false stops the start with a message naming it', async () => {
  await expect(start({ ...QUIET, DEMO_DATA: 'yes' })).rejects.toThrow(new ConfigError('invalid configuration: DEMO_DATA="yes": must be one of true, false'));
});
