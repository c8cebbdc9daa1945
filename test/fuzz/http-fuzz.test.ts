import fc from 'fast-check';
import request from 'supertest';
import { ERROR_CODES } from '../../src/errors/catalogue';
import type { RunningServer } from '../../src/listen';
import { ADMIN_TOKEN } from '../support/admin';
import { authenticate, type Credentials } from '../support/reporting';
import { serve } from '../support/http';
import { addAccount, buildTestApp, LIMITS_OUT_OF_REACH } from '../support/test-app';
import { anyRequest, nearlyValidRequest } from './arbitraries';
import { leakIn } from './leaks';
import { sendRaw, type RawRequest, type RawResponse } from './raw-http';

/*
 * Every route, fed what broken and hostile clients send, through a real listening server (on each store:
 * this file is in both jest projects): never a 5xx but a SOAP fault, always an error body the client can
 * read, never a stack trace or a file path, and a server that still answers a good request afterwards.
 * `npm test` runs FUZZ_RUNS (default 300) cases from a fixed seed; `npm run fuzz` runs 10,000 from a new
 * seed each time (FUZZ_SEED=random), shown in the test's name; FUZZ_SEED=<that number> replays it.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = process.env.FUZZ_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.FUZZ_SEED ?? 20_261_123);
const PER_CASE_BUDGET_MS = 200;

const JSON_ERROR = /^\{"error":"(?:[^"\\]|\\.)*"\}$/s;
const XML_ERROR = /^<\?xml version="1\.0" encoding="UTF-8"\?><result><error>[^<]*<\/error><\/result>$/s;
const SOAP_FAULT = /^<\?xml version="1\.0" encoding="UTF-8"\?><soap:Envelope [^>]*><soap:Body><soap:Fault><faultcode>soap:(Client|Server|MustUnderstand)<\/faultcode><faultstring>[^<]*<\/faultstring><\/soap:Fault><\/soap:Body><\/soap:Envelope>$/s;
/** Refusals made before any route sees the request (src/http/client-error.ts): JSON on every path. */
const BEFORE_ANY_ROUTE = /^\{"error":"(the request (method is not valid HTTP|headers are larger than|is not valid HTTP|has more than)|an HTTP\/1\.1 request must have a Host)/;
/** Every code of the error catalogue. */
const CATALOGUE_CODES: ReadonlySet<string> = new Set(Object.keys(ERROR_CODES));

let running: RunningServer;
let credentials: Credentials;

beforeEach(async () => {
  const { app, store } = buildTestApp({
    ADMIN_TOKEN,
    ...LIMITS_OUT_OF_REACH,
  });
  running = await serve(app);
  await addAccount(store, { phones: ['18005550100', '15550001'], timeZone: 'America/New_York' });
  credentials = await authenticate(running.url);
});

afterEach(() => running.close());

const secrets = () => ({ adminToken: ADMIN_TOKEN, ...credentials });

/** A SOAP path as Express routes it (any letter case, a trailing slash or not): every refusal there is a SOAP fault. */
const onSoapPath = (target: string) => /^\/survey(\/plum)?\/?(\?|$)/i.test(target);

/** What must hold for any answer to any request; returns the broken rule, or undefined. */
function brokenRule(sent: RawRequest, answer: RawResponse): string | undefined {
  if (!Number.isInteger(answer.status)) return 'no HTTP status';
  const leak = leakIn(answer.body);
  if (leak !== undefined) return `a stack trace or a file path in the body (${JSON.stringify(leak)})`;
  if (answer.status >= 500 && !(onSoapPath(sent.target) && SOAP_FAULT.test(answer.body))) return `${answer.status} outside a SOAP fault`;
  if (answer.status >= 400 && !CATALOGUE_CODES.has(answer.headers['x-error-code'] ?? '')) return `a ${answer.status} whose X-Error-Code is no code of the catalogue`;
  if (answer.status < 400 || sent.method === 'HEAD') return undefined;
  if (onSoapPath(sent.target) && !BEFORE_ANY_ROUTE.test(answer.body)) {
    return SOAP_FAULT.test(answer.body) ? undefined : `a ${answer.status} on a SOAP path that is not a SOAP fault`;
  }
  if (!JSON_ERROR.test(answer.body) && !XML_ERROR.test(answer.body)) return `a ${answer.status} without an error body`;
  return undefined;
}

describe('any request to any route', () => {
  test(
    `gets a 4xx with an error body (or a SOAP fault), never a 5xx or a stack trace, and leaves the server serving (${RUNS} cases, seed ${SEED})`,
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(anyRequest(secrets()), nearlyValidRequest(secrets())), async (sent) => {
          const answer = await sendRaw(running.url, sent);
          const broken = brokenRule(sent, answer);
          if (broken !== undefined) throw new Error(`${broken}: ${answer.status} ${answer.body.slice(0, 300)}`);
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
      const good = await request(running.url).get('/api/events/20180201/20180207/day/ALL').auth(credentials.login, credentials.password);
      expect(good.status).toBe(200);
    },
    60_000 + RUNS * PER_CASE_BUDGET_MS,
  );
});
