import request from 'supertest';
import { FakeClock } from '../support/fake-clock';
import { startInstance, type Instance } from '../support/instances';
import { createTestSchema, describeWithPostgresAndRedis, uniqueRedisPrefix, type TestSchema } from '../support/services';
import { addAccount } from '../support/test-app';

let schema: TestSchema;
const instances: Instance[] = [];

afterEach(async () => {
  for (const instance of instances.splice(0)) await instance.close();
  await schema.drop();
});

describeWithPostgresAndRedis('two instances on one PostgreSQL and one Redis', () => {
  test('give exactly 150 non-429 answers to 200 concurrent data requests of one account spread over both', async () => {
    schema = await createTestSchema();
    const prefix = uniqueRedisPrefix();
    const clock = new FakeClock(Date.UTC(2018, 1, 7, 15, 5, 0));
    const first = await startInstance(schema.url, prefix, clock);
    const second = await startInstance(schema.url, prefix, clock);
    instances.push(first, second);
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
