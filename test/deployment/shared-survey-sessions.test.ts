import path from 'node:path';
import { FakeClock } from '../support/fake-clock';
import { startInstance, type Instance } from '../support/instances';
import { createTestSchema, describeWithPostgresAndRedis, uniqueRedisPrefix, type TestSchema } from '../support/services';
import { plumEval, post, responseBody, sessionCookieOf, svcEval, svcEvalResponseOf } from '../survey-clients/support';

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

  test('with SURVEY_SERVICES, each service\'s surveys continue across instances and stay apart from the other service\'s', async () => {
    schema = await createTestSchema();
    const prefix = uniqueRedisPrefix();
    const clock = new FakeClock();
    const env = { SURVEY_SERVICES: path.join(__dirname, '..', '..', 'examples', 'survey-services', 'services.yaml') };
    const first = await startInstance(schema.url, prefix, clock, env);
    const second = await startInstance(schema.url, prefix, clock, env);
    instances.push(first, second);
    const respondent = plumEval(['Agree?'], ['yes'], { session_id: 'respondent-7' });
    const answers = [
      await post(first.url, respondent, {}, '/survey/consent/plum'),
      await post(second.url, respondent, {}, '/survey/plum'),
      await post(second.url, respondent, {}, '/survey/consent/plum'),
      await post(first.url, respondent, {}, '/survey/plum'),
    ];
    expect(answers.map((answer) => answer.text)).toEqual(
      ['accepted', 'accepted', 'accepted again', 'accepted again'].map((response) => responseBody(response, 'plumEval')),
    );
  });
});
