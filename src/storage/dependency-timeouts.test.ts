import { createLogger } from '../logger';
import { createPool } from './postgres/pool';
import { connectRedis } from './redis/redis-client';
import { describeWithRedis, testRedisUrl } from '../../test/support/services';

// How long a frozen dependency holds a request is not timed here (test/deployment/lost-dependencies.test.ts
// shows the 500 and the recovery); what is checked is that every wait carries the configured bound.

describe('the PostgreSQL pool', () => {
  test('bounds taking or opening a connection and every query, on the server and in this process, by the timeout given', async () => {
    const pool = createPool('postgres://ivr@127.0.0.1:1/ivr', createLogger('silent'), 1_234);
    try {
      expect(pool.options).toMatchObject({ connectionTimeoutMillis: 1_234, query_timeout: 1_234, statement_timeout: 1_234 });
    } finally {
      await pool.end();
    }
  });

  test('behind a transaction pooler, bounds the waits in this process only, and leaves the server bound to the role (src/storage/postgres/pgbouncer.test.ts)', async () => {
    const pool = createPool('postgres://ivr@127.0.0.1:1/ivr', createLogger('silent'), 1_234, 'transaction');
    try {
      expect(pool.options).toMatchObject({ connectionTimeoutMillis: 1_234, query_timeout: 1_234 });
      expect(pool.options).not.toHaveProperty('statement_timeout');
    } finally {
      await pool.end();
    }
  });
});

describeWithRedis('the Redis client', () => {
  test('bounds connecting and every command by the timeout given, in seconds', async () => {
    const redis = await connectRedis(testRedisUrl as string, createLogger('silent'), 2);
    try {
      expect(redis.options).toMatchObject({ connectTimeout: 2_000, commandTimeout: 2_000, enableOfflineQueue: false });
    } finally {
      redis.disconnect();
    }
  });
});
