import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { errors } from '../../errors/catalogue';
import { callInspector, inspectCall } from './inspector';

// A full collection on demand, without starting jest with --expose-gc: a new context picks up the flag.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const heapUsed = (): number => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};

const MB = 1_000_000;
const CALLS = 20;

describe("what the inspector's entries hold", () => {
  test('only their own copies: not the long texts of the calls they were cut from', () => {
    const inspector = callInspector(CALLS);
    const before = heapUsed();
    for (let i = 0; i < CALLS; i += 1) {
      // 10,000,000 characters, made as a parser may make them: one string the kept texts are cut from.
      const body = `${'x'.repeat(10_000_000)}${i}`;
      const parts = {
        answers: [body],
        questionTexts: [body.slice(100, 600)],
        aniIp: body.slice(1000, 1050),
        dnis: body.slice(2000, 2020),
        sessionId: body.slice(3000, 3036),
      };
      const inspection = inspectCall(inspector, { now: () => 0 }, { service: 'survey', path: '/survey/rest', flavour: 'rest', parts, files: [] }, body.slice(4000, 4036));
      inspection.handlerStarts();
      if (i % 2 === 0) inspection.answered(body.slice(5000), body.slice(6000, 6036));
      else inspection.failed(errors.invalidSurveyCall(body.slice(7000, 7100)));
    }
    expect(inspector.newestFirst()).toHaveLength(CALLS);
    // Kept whole, the 20 texts would be 200 MB; the entries' own copies are a few kilobytes each.
    expect((heapUsed() - before) / MB).toBeLessThan(50);
  });
});
