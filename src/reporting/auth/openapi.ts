import type { OpenAPIRegistry, ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { errors } from '../../errors/catalogue';
import { errorResponse, FORM_TYPE, JSON_TYPE, jsonOrXml, type SharedHeaders } from '../../http/openapi/components';
import type { ExampleExchange, ExampleSession } from '../../http/openapi/examples';
import type { RateLimitSettings } from '../../rate-limit/settings';
import { authenticationFieldsSchema } from './params';
import { issuedCredentialsSchema } from './route';

export const AUTHENTICATION_TAG = 'Authentication';

/** What POST /api/auth's description says of the server, and the answers it shares with the raw-data resources (../openapi.ts). */
interface DescribedAuthentication {
  readonly rateLimits: RateLimitSettings;
  readonly credentialTtlSeconds: number;
  readonly tooMany: ResponseConfig;
  readonly failed: ResponseConfig;
}

/** POST /api/auth. */
export function registerAuthenticationOperation(
  registry: OpenAPIRegistry,
  headers: SharedHeaders,
  { rateLimits, credentialTtlSeconds, tooMany, failed }: DescribedAuthentication,
): void {
  registry.registerPath({
    method: 'post',
    path: '/api/auth',
    operationId: 'authenticate',
    tags: [AUTHENTICATION_TAG],
    summary: 'Temporary credentials for the raw-data resources',
    description:
      "Trades a tool account's login and password for a temporary login and password, to send as HTTP Basic " +
      `credentials to the raw-data resources. A new pair on every success; each works until it is unused for ${credentialTtlSeconds} s, ` +
      "or the account is deactivated, its password changed or its credentials revoked. Tool, login and password go in the body, " +
      "a form or a JSON object. The reference documents them as query parameters, and the server reads them from the query string " +
      "too (the body's where both have one), but a password in an address is written to logs on its way: this document offers the body only. " +
      `Counts against the authentication group: ${rateLimits.auth} requests per ${rateLimits.windowSeconds} s per client address.`,
    security: [],
    request: {
      body: {
        required: true,
        content: { [FORM_TYPE]: { schema: authenticationFieldsSchema }, [JSON_TYPE]: { schema: authenticationFieldsSchema } },
      },
    },
    responses: {
      200: { description: 'The temporary credentials', headers: { ...headers.rateLimit }, content: jsonOrXml(issuedCredentialsSchema) },
      400: errorResponse(
        'An invalid tool, a login or password missing (from both the body and the query string) or not as the schema says, or a body that cannot be read',
        { xml: true, headers: headers.rateLimit },
      ),
      401: errorResponse('Unknown login, wrong password or inactive account: one answer for the three', {
        xml: true,
        headers: { ...headers.rateLimit, ...headers.formChallenge },
      }),
      429: tooMany,
      500: failed,
    },
  });
}

/** The login of the example pair: the admin API's examples show the same pair expired. */
export const ISSUED_LOGIN_EXAMPLE = 'c414aebaa298ef899306203a63e1985c';

/** The session's login, and two refusals. */
export function authenticationExamples({ account: { tool, login, password } }: ExampleSession): ExampleExchange[] {
  return [
    {
      name: 'form',
      summary: 'The demo account, as a form',
      operationId: 'authenticate',
      body: { mediaType: FORM_TYPE, value: { tool, login, password } },
      response: {
        status: 200,
        mediaType: JSON_TYPE,
        drawnAtRandom: true,
        body: { login: ISSUED_LOGIN_EXAMPLE, password: '21be7ebab7ed5c23fa78c0878b7db083' },
      },
    },
    {
      name: 'invalidTool',
      summary: 'A tool that does not exist',
      operationId: 'authenticate',
      body: { mediaType: FORM_TYPE, value: { tool: 'nope', login, password } },
      response: { status: 400, mediaType: JSON_TYPE, body: { error: errors.invalidTool().message } },
    },
    {
      name: 'wrongPassword',
      summary: 'A wrong password, as JSON',
      operationId: 'authenticate',
      body: { mediaType: JSON_TYPE, value: { tool, login, password: 'wrong-password' } },
      response: {
        status: 401,
        mediaType: JSON_TYPE,
        headers: { 'WWW-Authenticate': 'Form realm="IVR reporting API"' },
        body: { error: 'invalid login or password, or the account is inactive' },
      },
    },
  ];
}
