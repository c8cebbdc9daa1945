import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { pipeline } from './pipeline';

const req = {} as Request;
const res = {} as Response;

/** Runs a pipeline to its end: what the steps did, and what went on (`next()`, `next(error)`) or to `failed`. */
async function run(steps: RequestHandler[], failed?: ErrorRequestHandler): Promise<{ done: string[]; ended: string }> {
  const done: string[] = [];
  const ended = await new Promise<string>((resolve) => {
    const routeFailed: ErrorRequestHandler | undefined =
      failed === undefined
        ? undefined
        : (error: Error, ...rest) => {
            resolve(`failed: ${error.message}`);
            failed(error, ...rest);
          };
    pipeline(
      steps.map((step, index) => (request, response, next) => {
        done.push(`step ${index}`);
        return step(request, response, next);
      }),
      routeFailed,
    )(req, res, (error?: unknown) => resolve(error instanceof Error ? `next: ${error.message}` : 'next'));
  });
  return { done, ended };
}

const onward: RequestHandler = (_req, _res, next) => next();

describe('a route pipeline', () => {
  test('runs its steps in order and goes on after the last', async () => {
    expect(await run([onward, onward, onward])).toEqual({ done: ['step 0', 'step 1', 'step 2'], ended: 'next' });
  });

  test('runs an asynchronous step to its next', async () => {
    const later: RequestHandler = async (_req, _res, next) => {
      await Promise.resolve();
      next();
    };
    expect(await run([later, onward])).toEqual({ done: ['step 0', 'step 1'], ended: 'next' });
  });

  test('ends at a step that answers without next', () => {
    const done: string[] = [];
    const answers: RequestHandler = () => done.push('answered');
    const never: RequestHandler = () => done.push('ran on');
    pipeline([answers, never])(req, res, () => done.push('went on'));
    expect(done).toEqual(['answered']);
  });

  test.each([
    ['calls next with an error', ((_req, _res, next) => next(new Error('refused'))) as RequestHandler],
    ['throws', (() => { throw new Error('refused'); }) as RequestHandler],
    ['rejects', (async () => Promise.reject(new Error('refused'))) as RequestHandler],
  ])('stops at a step that %s and hands the error on', async (_how, failing) => {
    expect(await run([onward, failing, onward])).toEqual({ done: ['step 0', 'step 1'], ended: 'next: refused' });
  });

  test("hands an error to the route's own failure handler when it has one", async () => {
    const failing: RequestHandler = (_req, _res, next) => next(new Error('refused'));
    expect(await run([failing, onward], () => undefined)).toEqual({ done: ['step 0'], ended: 'failed: refused' });
  });
});
