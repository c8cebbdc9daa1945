import { FakeClock } from '../support/fake-clock';
import { startInstance, type Instance } from '../support/instances';
import { createTestSchema, describeWithPostgresAndRedis, uniqueRedisPrefix, type TestSchema } from '../support/services';
import { post, sessionCookieOf, svcEval, svcEvalResponseOf } from '../survey-clients/support';

let schema: TestSchema;
const instances: Instance[] = [];

afterEach(async () => {
  for (const instance of instances.splice(0)) await instance.close();
  await schema.drop();
});

describeWithPostgresAndRedis('a survey over two instances sharing Redis', () => {
  test('continues on the other instance when the session cookie is sent back', async () => {
    schema = await createTestSchema();
    const prefix = uniqueRedisPrefix();
    const clock = new FakeClock();
    const first = await startInstance(schema.url, prefix, clock);
    const second = await startInstance(schema.url, prefix, clock);
    instances.push(first, second);
    const yes = svcEval(['Agree?'], ['yes']);

    const opened = await post(first.url, yes);
    const cookie = sessionCookieOf(opened);
    const continued = await post(second.url, yes, { Cookie: cookie });
    expect([svcEvalResponseOf(opened.text), svcEvalResponseOf(continued.text)]).toEqual(['accepted', 'accepted again']);
  });
});
