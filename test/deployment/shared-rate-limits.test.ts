import request from 'supertest';
import { createApp } from '../../src/app';
import { loadConfig } from '../../src/config/config';
import { createLogger } from '../../src/logger';
import type { RunningServer } from '../../src/server';
import { openPostgresStore } from '../../src/storage/postgres/postgres-store';
import { connectRedis } from '../../src/storage/redis/redis-client';
import { withRedisSharedState } from '../../src/storage/shared-state';
import type { Store } from '../../src/storage/store';
import { FakeClock } from '../support/fake-clock';
import { serve } from '../support/http';
import {
  createTestSchema,
  describeWithPostgresAndRedis,
  testRedisUrl,
  uniqueRedisPrefix,
  type TestSchema,
} from '../support/services';
import { addAccount } from '../support/test-app';

let schema: TestSchema;
const stores: Store[] = [];
const servers: RunningServer[] = [];

/** One more server process, as a second instance behind a load balancer would be: its own store objects, the same PostgreSQL and Redis. */
async function startInstance(prefix: string, clock: FakeClock): Promise<{ url: string; store: Store }> {
  const logger = createLogger('silent');
  const store = withRedisSharedState(
    await openPostgresStore(schema.url, logger),
    await connectRedis(testRedisUrl as string, logger),
    prefix,
  );
  stores.push(store);
  const running = await serve(createApp({ config: loadConfig({}), store, clock, logger }));
  servers.push(running);
  return { url: running.url, store };
}

afterEach(async () => {
  for (const running of servers.splice(0)) {
    running.server.closeAllConnections();
    await running.close();
  }
  for (const store of stores.splice(0)) await store.close();
  await schema.drop();
});

describeWithPostgresAndRedis('two instances on one PostgreSQL and one Redis', () => {
  test('give exactly 150 non-429 answers to 200 concurrent data requests of one account spread over both', async () => {
    schema = await createTestSchema();
    const prefix = uniqueRedisPrefix();
    const clock = new FakeClock(Date.UTC(2018, 1, 7, 15, 5, 0));
    const first = await startInstance(prefix, clock);
    const second = await startInstance(prefix, clock);
    await addAccount(first.store, { phones: ['15550001'] });
    const auth = await request(first.url).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'secret-password' });
    const { login, password } = auth.body as { login: string; password: string };

    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        request(index % 2 === 0 ? first.url : second.url)
          .get('/api/events/20180201/20180201/day/ALL')
          .auth(login, password),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(150);
    expect(statuses.filter((status) => status === 429)).toHaveLength(50);
    const remaining = responses
      .filter((response) => response.status === 200)
      .map((response) => Number(response.headers['x-ratelimit-remaining']))
      .sort((a, b) => a - b);
    expect(remaining).toEqual(Array.from({ length: 150 }, (_, index) => index));
  });
});
