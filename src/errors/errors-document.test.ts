import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, errors } from './catalogue';
import { errorsDocument } from './errors-document';
import { documentOf } from '../../test/support/openapi';
import { buildTestApp } from '../../test/support/test-app';

describe('the error catalogue', () => {
  test('is what docs/errors.md says, code by code (npm run docs:errors writes it)', () => {
    expect(readFileSync(path.join(__dirname, '../../docs/errors.md'), 'utf8')).toBe(errorsDocument());
  });

  test('is the list of values the OpenAPI document gives X-Error-Code', () => {
    const document = documentOf(buildTestApp({ ADMIN_TOKEN: 'test-admin-token-0123456789' }));
    const events = document.paths?.['/api/events/{start}/{end}/{period}/{phone}']?.get?.responses?.['400'] as {
      headers: Record<string, { schema: { enum: string[] } }>;
    };
    expect(events.headers['X-Error-Code']?.schema.enum).toEqual(Object.keys(ERROR_CODES));
  });

  test('makes each error with the status its code has in the table', () => {
    const made = [
      errors.invalidTool(),
      errors.endBeforeStart('20180201', '20180101'),
      errors.notFound('/x'),
      errors.methodNotAllowed('PUT', ['GET']),
      errors.payloadTooLarge(1),
      errors.rateLimited(),
      errors.internal(),
      errors.dependencyUnavailable('store', new Error('down')),
    ];
    expect(made.map(({ code, statusCode }) => [code, statusCode])).toEqual(made.map(({ code }) => [code, ERROR_CODES[code as keyof typeof ERROR_CODES].status]));
  });
});
