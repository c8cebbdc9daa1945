import request from 'supertest';
import { drawAnswers } from '../../src/storage/scenario-draws';
import { ADMIN_TOKEN, BEARER } from '../support/admin';
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

/** Two instances on a new schema and one Redis prefix, and temporary credentials of an account on them. */
async function twoInstancesWithCredentials(): Promise<{ first: Instance; second: Instance; login: string; password: string }> {
  schema = await createTestSchema();
  const prefix = uniqueRedisPrefix();
  const clock = new FakeClock();
  const [first, second] = [
    await startInstance(schema.url, prefix, clock, { ADMIN_TOKEN }),
    await startInstance(schema.url, prefix, clock, { ADMIN_TOKEN }),
  ] as [Instance, Instance];
  instances.push(first, second);
  await addAccount(first.store);
  const auth = await request(first.url).post('/api/auth').type('form').send({ tool: 'dev', login: 'alice', password: 'secret-password' });
  const { login, password } = auth.body as { login: string; password: string };
  return { first, second, login, password };
}

describeWithPostgresAndRedis('a failure scenario on two instances of one PostgreSQL', () => {
  test('added through one, answers exactly `times` of 40 concurrent requests spread over both, and both list its count', async () => {
    const { first, second, login, password } = await twoInstancesWithCredentials();
    const added = await request(first.url).post('/admin/scenarios').set('Authorization', BEARER).send({ target: 'events', status: 503, times: 7 });
    expect(added.status).toBe(201);

    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        request(index % 2 === 0 ? first.url : second.url)
          .get('/api/events/20180201/20180207/day/ALL')
          .auth(login, password),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 500)).toHaveLength(7);
    expect(statuses.filter((status) => status === 200)).toHaveLength(33);
    for (const instance of [first, second]) {
      const listed = await request(instance.url).get('/admin/scenarios').set('Authorization', BEARER);
      expect((listed.body as { scenarios: { fired: number; active: boolean }[] }).scenarios).toEqual([
        expect.objectContaining({ id: (added.body as { id: string }).id, fired: 7, active: false }),
      ]);
    }
  });

  test('by chance with a seed, answers the requests sent one after another to either instance as its seed says', async () => {
    const { first, second, login, password } = await twoInstancesWithCredentials();
    const added = await request(second.url).post('/admin/scenarios').set('Authorization', BEARER).send({ target: 'events', status: 503, probability: 0.3, seed: 99 });
    expect(added.status).toBe(201);

    const failed: boolean[] = [];
    for (let index = 0; index < 40; index += 1) {
      const response = await request(index % 2 === 0 ? first.url : second.url)
        .get('/api/events/20180201/20180207/day/ALL')
        .auth(login, password);
      failed.push(response.status === 500);
    }
    expect(failed).toEqual(Array.from({ length: 40 }, (_, index) => drawAnswers(99, index + 1, 0.3)));
  });

  test('of 200 additions at once spread over both with SANDBOX_MAX_SCENARIOS=5, exactly 5 are added and 195 refused', async () => {
    schema = await createTestSchema();
    const prefix = uniqueRedisPrefix();
    const clock = new FakeClock();
    const env = { ADMIN_TOKEN, SANDBOX_MAX_SCENARIOS: '5' };
    const [first, second] = [await startInstance(schema.url, prefix, clock, env), await startInstance(schema.url, prefix, clock, env)] as [
      Instance,
      Instance,
    ];
    instances.push(first, second);

    const responses = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        request(index % 2 === 0 ? first.url : second.url)
          .post('/admin/scenarios')
          .set('Authorization', BEARER)
          .send({ target: 'auth', status: 429, client_address: `10.0.${Math.floor(index / 256)}.${index % 256}` }),
      ),
    );
    const statuses = new Map<number, number>();
    for (const { status } of responses) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    expect(Object.fromEntries(statuses)).toEqual({ 201: 5, 409: 195 });
    const added = responses.filter((response) => response.status === 201);
    for (const response of responses.filter(({ status }) => status === 409)) {
      expect(response.headers['x-error-code']).toBe('IVR_TOO_MANY_SCENARIOS');
      expect(response.body).toEqual({
        error:
          '5 scenarios have answers left, the most SANDBOX_MAX_SCENARIOS allows: delete some ' +
          '(DELETE /admin/scenarios/{id}, or DELETE /admin/scenarios for all) before adding another',
      });
    }
    const addedIds = added.map((response) => (response.body as { id: string }).id).sort();
    for (const instance of [first, second]) {
      const listed = await request(instance.url).get('/admin/scenarios').set('Authorization', BEARER);
      expect((listed.body as { scenarios: { id: string }[] }).scenarios.map(({ id }) => id).sort()).toEqual(addedIds);
    }
  });
});
