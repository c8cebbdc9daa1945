import { ERROR_CODES } from './catalogue';

/**
 * docs/errors.md, written from the catalogue's table: every code the server answers with, its status
 * and when. `npm run docs:errors` writes it; src/errors/errors-document.test.ts keeps it in step.
 */
export function errorsDocument(): string {
  const rows = Object.entries(ERROR_CODES)
    .sort(([, a], [, b]) => a.status - b.status)
    .map(([code, { status, when }]) => `| \`${code}\` | ${status} | ${when} |`);
  return [
    '# Error codes',
    '',
    '<!-- Written by `npm run docs:errors` from src/errors/catalogue.ts; edit the catalogue, not this file. -->',
    '',
    "Every refusal the server answers with names its code in the `X-Error-Code` header and on the request's",
    'access log line; the body stays `{"error": "..."}` (or its XML, or a SOAP fault on the survey service),',
    'whose message may change while the code does not. The status is the one the code is answered with;',
    "on the reporting API (`/api`), held to the specification's statuses, a 503 is a 500 `unknown error`",
    'with `Retry-After` and a 408 a 400; the SOAP service sends every refusal as a SOAP 1.1 fault (HTTP 500,',
    'but 405, 413 and 429), `soap:Client` below 500 and `soap:Server` from it.',
    '',
    '| code | status | when |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
