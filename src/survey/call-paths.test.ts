import { Router, type Request, type RequestHandler, type Response } from 'express';
import { CallPaths } from './router';

const SERVICE = '/survey';

/** Which of the methods and paths the lookup served (the call) and which it handed on to the router. */
function dispatched(requests: ReadonlyArray<readonly [method: string, path: string]>): { served: string[]; passedOn: string[] } {
  const calls = new CallPaths();
  const served: string[] = [];
  const call: RequestHandler = (req) => served.push(`${req.method} ${req.path}`);
  calls.add(SERVICE, Router().route<string>(SERVICE), call);
  const passedOn: string[] = [];
  for (const [method, path] of requests) {
    calls.dispatch({ method, path } as Request, {} as Response, () => passedOn.push(`${method} ${path}`));
  }
  return { served, passedOn };
}

describe('the survey calls lookup (CallPaths)', () => {
  it('serves a POST of a service path as sent, or with one trailing slash', () => {
    expect(dispatched([['POST', '/survey'], ['POST', '/survey/']]).served).toEqual(['POST /survey', 'POST /survey/']);
  });

  it('leaves to the router another letter case, a percent-encoded path, a second slash and other methods', () => {
    const requests = [
      ['POST', '/Survey'],
      ['POST', '/%73urvey'],
      ['POST', '/survey//'],
      ['GET', '/survey'],
    ] as const;
    expect(dispatched(requests)).toEqual({ served: [], passedOn: requests.map(([method, path]) => `${method} ${path}`) });
  });
});
