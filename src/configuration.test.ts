import { configWarnings, loadConfig } from './configuration';
import { ConfigError } from './config/config-error';

describe('configuration', () => {
  test('uses the defaults of docs/specification.md and .env.example when nothing is set', () => {
    expect(loadConfig({})).toEqual({
      server: {
        port: 3000,
        host: '127.0.0.1',
        logLevel: 'info',
        production: false,
        publicUrl: undefined,
        trustProxy: false,
        requestIdleTimeoutSeconds: 30,
        minimumBodyRate: { bytesPerSecond: 240, windowSeconds: 5 },
        maxConnectionsPerAddress: 100,
      },
      storage: { store: 'memory', databaseUrl: undefined, databasePooler: 'none', databaseReadPooler: 'none', databaseReadUrls: [], redisUrl: undefined, dependencyTimeoutSeconds: 5 },
      startupData: { seedFile: undefined, demoData: true },
      accounts: { defaultTimeZone: 'UTC', passwordHashConcurrency: 1, passwordHashQueue: 64 },
      reporting: {
        weekStart: 'monday',
        maxRangeDays: 3660,
        reportCacheBytes: 67_108_864,
        credentialTtlSeconds: 86_400,
        authCacheSeconds: 1200,
        authCacheMaxEntries: 10_000,
      },
      rateLimits: { auth: 15, data: 150, admin: 90_000, survey: 20_000, windowSeconds: 900 },
      admin: { token: undefined },
      sandbox: { movableClock: false, scenarios: { enabled: true, mostActive: 100 }, inspectCalls: 200 },
      survey: {
        services: [
          {
            name: 'survey',
            soapPath: '/survey',
            plumPath: '/survey/plum',
            restPath: '/survey/rest',
            flavours: ['svcEval', 'plumEval', 'rest'],
            handler: undefined,
            sessionCookie: 'survey_session',
            sessionScope: '',
          },
        ],
        servicesFile: undefined,
        maxBytes: 10_485_760,
        maxBytesHeld: 67_108_864,
        reload: false,
        sessionTtlSeconds: 3600,
        evaluation: { timeoutSeconds: 10, maxResponseBytes: 10_485_760, maxStateBytes: 16_384 },
        isolation: 'event-loop',
        maxSessions: 100_000,
        messageLimits: { maxDepth: 32, maxElements: 10_000, maxItems: 1000, maxAttributes: 32, maxTextLength: 10_485_760 },
      },
      operations: { metricsToken: undefined, readinessTimeoutSeconds: 2, shutdownDrainSeconds: 0 },
      retention: { months: undefined },
      strayVariables: [],
    });
  });

  test('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DEFAULT_TIMEZONE: '  ' })).toMatchObject({ server: { port: 3000 }, accounts: { defaultTimeZone: 'UTC' } });
  });

  test('reads every variable it knows', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: 'https://ivr.example.com/',
      TRUST_PROXY: '1',
      SEED_FILE: './seed.json',
      DEMO_DATA: 'false',
      DEFAULT_TIMEZONE: 'America/New_York',
      WEEK_START: 'sunday',
      MAX_RANGE_DAYS: '366',
      REPORT_CACHE_BYTES: '0',
      CREDENTIAL_TTL_SECONDS: '60',
      AUTH_CACHE_SECONDS: '0',
      AUTH_CACHE_MAX_ENTRIES: '500',
      PASSWORD_HASH_CONCURRENCY: '2',
      AUTH_RATE_LIMIT: '5',
      DATA_RATE_LIMIT: '50',
      RATE_LIMIT_WINDOW_SECONDS: '60',
      STORE: 'memory',
      RETENTION_MONTHS: '24',
    });
    expect(config).toMatchObject({
      server: { port: 8080, host: '0.0.0.0', logLevel: 'warn', publicUrl: 'https://ivr.example.com', trustProxy: 1 },
      startupData: { seedFile: './seed.json', demoData: false },
      accounts: { defaultTimeZone: 'America/New_York', passwordHashConcurrency: 2 },
      reporting: { weekStart: 'sunday', maxRangeDays: 366, reportCacheBytes: 0, credentialTtlSeconds: 60, authCacheSeconds: 0, authCacheMaxEntries: 500 },
      rateLimits: { auth: 5, data: 50, windowSeconds: 60 },
      storage: { store: 'memory' },
      retention: { months: 24 },
    });
  });

  test.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['loopback, 10.0.0.0/8', 'loopback, 10.0.0.0/8'],
  ])('reads TRUST_PROXY=%s as %p', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).server.trustProxy).toEqual(expected);
  });

  test('reads the PostgreSQL and Redis addresses of a durable deployment', () => {
    expect(
      loadConfig({ STORE: 'postgres', DATABASE_URL: 'postgres://ivr@db:5432/ivr', REDIS_URL: 'redis://cache:6379/0' }),
    ).toMatchObject({ storage: { store: 'postgres', databaseUrl: 'postgres://ivr@db:5432/ivr', redisUrl: 'redis://cache:6379/0' } });
  });

  test('reads DATABASE_READ_URL as one replica URL or several separated by commas, and none when unset', () => {
    const durable = { STORE: 'postgres', DATABASE_URL: 'postgres://ivr@db:5432/ivr' };
    expect(loadConfig(durable).storage.databaseReadUrls).toEqual([]);
    expect(loadConfig({ ...durable, DATABASE_READ_URL: 'postgres://ivr@replica-a/ivr' }).storage.databaseReadUrls).toEqual(['postgres://ivr@replica-a/ivr']);
    expect(
      loadConfig({ ...durable, DATABASE_READ_URL: 'postgres://ivr:s3cret@replica-a:5432/ivr, postgresql://ivr@replica-b/ivr?sslmode=require' }).storage
        .databaseReadUrls,
    ).toEqual(['postgres://ivr:s3cret@replica-a:5432/ivr', 'postgresql://ivr@replica-b/ivr?sslmode=require']);
  });

  test('stops with a message naming DATABASE_READ_URL, each password hidden, when one of its URLs is not PostgreSQL', () => {
    expect(() =>
      loadConfig({ STORE: 'postgres', DATABASE_URL: 'postgres://ivr@db/ivr', DATABASE_READ_URL: 'postgres://ivr:s3cret@replica-a/ivr,mysql://ivr:other@replica-b/ivr' }),
    ).toThrow(
      new ConfigError(
        'invalid configuration: DATABASE_READ_URL="postgres://ivr:***@replica-a/ivr,mysql://ivr:***@replica-b/ivr": must be postgres:// or postgresql:// URLs separated by commas',
      ),
    );
    expect(() => loadConfig({ STORE: 'postgres', DATABASE_URL: 'postgres://ivr@db/ivr', DATABASE_READ_URL: 'postgres://ivr@replica-a/ivr,' })).toThrow(
      new ConfigError('invalid configuration: DATABASE_READ_URL="postgres://ivr@replica-a/ivr,": must be postgres:// or postgresql:// URLs separated by commas'),
    );
  });

  test('stops with a message naming DATABASE_READ_URL when the store is not PostgreSQL', () => {
    expect(() => loadConfig({ DATABASE_READ_URL: 'postgres://ivr:s3cret@replica-a/ivr' })).toThrow(
      new ConfigError('invalid configuration: DATABASE_READ_URL="postgres://ivr:***@replica-a/ivr": needs STORE=postgres: it lists replicas of DATABASE_URL'),
    );
  });

  test('reads DATABASE_POOLER=transaction, a DATABASE_URL that leads to PgBouncer in transaction mode', () => {
    expect(loadConfig({ STORE: 'postgres', DATABASE_URL: 'postgres://ivr@pgbouncer:6432/ivr', DATABASE_POOLER: 'transaction' }).storage).toMatchObject({
      databaseUrl: 'postgres://ivr@pgbouncer:6432/ivr',
      databasePooler: 'transaction',
    });
  });

  test('reads DATABASE_READ_POOLER for the replicas, and takes what DATABASE_POOLER says when it is unset', () => {
    const replicas = { STORE: 'postgres', DATABASE_URL: 'postgres://ivr@pgbouncer:6432/ivr', DATABASE_READ_URL: 'postgres://ivr@replica-a:6432/ivr' };
    expect(loadConfig(replicas).storage).toMatchObject({ databasePooler: 'none', databaseReadPooler: 'none' });
    expect(loadConfig({ ...replicas, DATABASE_POOLER: 'transaction' }).storage).toMatchObject({ databasePooler: 'transaction', databaseReadPooler: 'transaction' });
    expect(loadConfig({ ...replicas, DATABASE_POOLER: 'transaction', DATABASE_READ_POOLER: 'none' }).storage).toMatchObject({
      databasePooler: 'transaction',
      databaseReadPooler: 'none',
    });
    expect(loadConfig({ ...replicas, DATABASE_READ_POOLER: 'transaction' }).storage).toMatchObject({ databasePooler: 'none', databaseReadPooler: 'transaction' });
  });

  test('stops with a message naming DATABASE_READ_POOLER when there is no DATABASE_READ_URL', () => {
    expect(() => loadConfig({ STORE: 'postgres', DATABASE_URL: 'postgres://ivr@db/ivr', DATABASE_READ_POOLER: 'transaction' })).toThrow(
      new ConfigError('invalid configuration: DATABASE_READ_POOLER="transaction": needs DATABASE_READ_URL: it says what the replicas are reached through'),
    );
  });

  test('stops with a message naming DATABASE_URL when STORE=postgres has none', () => {
    expect(() => loadConfig({ STORE: 'postgres' })).toThrow(
      new ConfigError('invalid configuration: DATABASE_URL is required when STORE=postgres'),
    );
  });

  test('reads the words of WEEK_START, STORE and LOG_LEVEL in any case', () => {
    const config = loadConfig({ WEEK_START: 'Sunday', STORE: 'MEMORY', LOG_LEVEL: 'Warn' });
    expect([config.reporting.weekStart, config.storage.store, config.server.logLevel]).toEqual(['sunday', 'memory', 'warn']);
  });

  test('freezes the result, every group and every value within', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.values(config).every((group) => Object.isFrozen(group))).toBe(true);
    expect(Object.isFrozen(config.survey.messageLimits)).toBe(true);
    expect(Object.isFrozen(config.server.minimumBodyRate)).toBe(true);
  });

  test('names every mistake of every feature in one message', () => {
    expect(() => loadConfig({ PORT: 'eighty', STORE: 'postgres', SOAP_PATH: 'survey' })).toThrow(
      new ConfigError(
        'invalid configuration: PORT="eighty": must be a whole number from 0 to 65535; DATABASE_URL is required when STORE=postgres; ' +
          'SOAP_PATH="survey": must be a path such as /survey',
      ),
    );
  });

  test.each([
    ['PORT', 'eighty', 'PORT="eighty": must be a whole number from 0 to 65535'],
    ['PORT', '70000', 'PORT="70000": must be a whole number from 0 to 65535'],
    ['DEFAULT_TIMEZONE', 'Mars/Olympus', 'DEFAULT_TIMEZONE="Mars/Olympus": must be an IANA time zone such as UTC or America/New_York'],
    ['WEEK_START', 'friday', 'WEEK_START="friday": must be one of monday, sunday'],
    ['DATA_RATE_LIMIT', '0', 'DATA_RATE_LIMIT="0": must be a whole number of at least 1'],
    ['PASSWORD_HASH_CONCURRENCY', '0', 'PASSWORD_HASH_CONCURRENCY="0": must be a whole number from 1 to 64'],
    ['AUTH_CACHE_SECONDS', '86401', 'AUTH_CACHE_SECONDS="86401": must be a whole number from 0 to 86400'],
    ['AUTH_CACHE_SECONDS', '20m', 'AUTH_CACHE_SECONDS="20m": must be a whole number from 0 to 86400'],
    ['AUTH_CACHE_MAX_ENTRIES', '0', 'AUTH_CACHE_MAX_ENTRIES="0": must be a whole number from 1 to 10000000'],
    ['REQUEST_IDLE_TIMEOUT_SECONDS', '0', 'REQUEST_IDLE_TIMEOUT_SECONDS="0": must be a whole number from 1 to 3600'],
    ['DEPENDENCY_TIMEOUT_SECONDS', '601', 'DEPENDENCY_TIMEOUT_SECONDS="601": must be a whole number from 1 to 600'],
    ['PUBLIC_URL', 'ftp://x', 'PUBLIC_URL="ftp://x": must be an http or https URL'],
    ['RETENTION_MONTHS', '0', 'RETENTION_MONTHS="0": must be a whole number from 1 to 1200'],
    ['SANDBOX_CLOCK', 'yes', 'SANDBOX_CLOCK="yes": must be one of true, false'],
    ['SURVEY_RELOAD', 'on', 'SURVEY_RELOAD="on": must be one of true, false'],
    ['DEMO_DATA', 'yes', 'DEMO_DATA="yes": must be one of true, false'],
    ['SURVEY_HANDLER_ISOLATION', 'thread', 'SURVEY_HANDLER_ISOLATION="thread": must be one of event-loop, worker'],
    ['STORE', 'mongodb', 'STORE="mongodb": must be one of memory, postgres'],
    ['DATABASE_POOLER', 'pgbouncer', 'DATABASE_POOLER="pgbouncer": must be one of none, transaction'],
    ['DATABASE_READ_POOLER', 'session', 'DATABASE_READ_POOLER="session": must be one of none, transaction'],
    ['DATABASE_URL', 'mysql://db/ivr', 'DATABASE_URL="mysql://db/ivr": must be a postgres:// or postgresql:// URL'],
    ['DATABASE_URL', 'mysql://ivr:s3cret@db/ivr', 'DATABASE_URL="mysql://ivr:***@db/ivr": must be a postgres:// or postgresql:// URL'],
    ['REDIS_URL', 'http://:s3cret@cache:6379', 'REDIS_URL="http://:***@cache:6379": must be a redis:// or rediss:// URL'],
    ['REDIS_URL', 'localhost:6379', 'REDIS_URL="localhost:6379": must be a redis:// or rediss:// URL'],
    [
      'TRUST_PROXY',
      'yes',
      'TRUST_PROXY="yes": must be true, false, a number of proxy hops, or a comma-separated list of addresses, subnets, loopback, linklocal or uniquelocal',
    ],
    [
      'TRUST_PROXY',
      'loopback, 10.0.0.0/33',
      'TRUST_PROXY="loopback, 10.0.0.0/33": must be true, false, a number of proxy hops, or a comma-separated list of addresses, subnets, loopback, linklocal or uniquelocal',
    ],
  ])('stops with a message naming %s when it is %s', (name, value, message) => {
    expect(() => loadConfig({ [name]: value })).toThrow(new ConfigError(`invalid configuration: ${message}`));
  });

  test('turns no sandbox feature on with NODE_ENV=production unless its variable names it', () => {
    const production = { NODE_ENV: 'production', ADMIN_TOKEN: 'a-long-enough-admin-token' };
    expect(loadConfig(production).sandbox).toEqual({ movableClock: false, scenarios: { enabled: false, mostActive: 100 }, inspectCalls: 0 });
    expect(loadConfig({ ...production, SANDBOX_CLOCK: 'true', SANDBOX_SCENARIOS: 'true', SURVEY_INSPECT_CALLS: '50' }).sandbox).toEqual({
      movableClock: true,
      scenarios: { enabled: true, mostActive: 100 },
      inspectCalls: 50,
    });
    expect(loadConfig({ ...production, SANDBOX_SCENARIOS: 'false', SURVEY_INSPECT_CALLS: '0' }).sandbox).toEqual(loadConfig(production).sandbox);
    expect(loadConfig({ NODE_ENV: 'development' }).sandbox).toEqual(loadConfig({}).sandbox);
  });

  test('loads the demo data unless DEMO_DATA=false, or with NODE_ENV=production unless DEMO_DATA=true', () => {
    expect(loadConfig({}).startupData.demoData).toBe(true);
    expect(loadConfig({ NODE_ENV: 'development' }).startupData.demoData).toBe(true);
    expect(loadConfig({ DEMO_DATA: 'false' }).startupData.demoData).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production' }).startupData.demoData).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', DEMO_DATA: 'TRUE' }).startupData.demoData).toBe(true);
  });

  test('warns, with NODE_ENV=production, of DEMO_DATA=true, unless a seed file replaces the demo data', () => {
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://ivr.example.com' };
    expect(configWarnings(loadConfig({ ...production, DEMO_DATA: 'true' }))).toEqual([
      'NODE_ENV=production with DEMO_DATA=true: the demo account dev/demo, whose password demo-password is published, ' +
        'is created with its calls when the store lacks it; unset DEMO_DATA unless this server is a sandbox',
    ]);
    expect(configWarnings(loadConfig({ ...production, DEMO_DATA: 'true', SEED_FILE: './seed.json' }))).toEqual([]);
    expect(configWarnings(loadConfig({ ...production, DEMO_DATA: 'false' }))).toEqual([]);
    expect(configWarnings(loadConfig({ DEMO_DATA: 'true' }))).toEqual([]);
  });

  test('warns once, with NODE_ENV=production, of the sandbox features on, naming each', () => {
    const production = { NODE_ENV: 'production', PUBLIC_URL: 'https://ivr.example.com', ADMIN_TOKEN: 'a-long-enough-admin-token' };
    expect(configWarnings(loadConfig(production))).toEqual([]);
    expect(configWarnings(loadConfig({ ...production, SANDBOX_CLOCK: 'true', SANDBOX_SCENARIOS: 'true', SURVEY_INSPECT_CALLS: '50' }))).toEqual([
      'NODE_ENV=production with sandbox features on: the movable clock (SANDBOX_CLOCK=true), failure scenarios (SANDBOX_SCENARIOS=true), ' +
        'the call inspector (SURVEY_INSPECT_CALLS=50); they are for client authors: unset them unless this server is a sandbox',
    ]);
    // The scenarios and the inspector are reached only through the admin API: without it they are not on.
    expect(configWarnings(loadConfig({ ...production, ADMIN_TOKEN: '', SANDBOX_SCENARIOS: 'true', SURVEY_INSPECT_CALLS: '50' }))).toEqual([]);
    expect(configWarnings(loadConfig({ ADMIN_TOKEN: production.ADMIN_TOKEN, SANDBOX_CLOCK: 'true' }))).toEqual([]);
  });

  test('caps connections per address at 100 unless TRUST_PROXY puts a proxy in front, where every connection is its own', () => {
    expect(loadConfig({}).server.maxConnectionsPerAddress).toBe(100);
    expect(loadConfig({ TRUST_PROXY: '0' }).server.maxConnectionsPerAddress).toBe(100);
    expect(loadConfig({ TRUST_PROXY: 'true' }).server.maxConnectionsPerAddress).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '1' }).server.maxConnectionsPerAddress).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).server.maxConnectionsPerAddress).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true', MAX_CONNECTIONS_PER_ADDRESS: '500' }).server.maxConnectionsPerAddress).toBe(500);
    expect(loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '0' }).server.maxConnectionsPerAddress).toBe(0);
  });
});
