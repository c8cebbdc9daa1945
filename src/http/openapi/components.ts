import type { OpenAPIRegistry, ResponseConfig, ZodContentObject } from '@asteasolutions/zod-to-openapi';
import type { ZodType } from 'zod';
import { ERROR_CODES } from '../../errors/catalogue';
import { ERROR_CODE_HEADER, errorBodySchema } from '../representation';

/** The security schemes' names, as operations name them. */
export const BASIC_AUTH = 'basicAuth';
export const BEARER_AUTH = 'bearerAuth';

export const JSON_TYPE = 'application/json';
export const XML_TYPE = 'application/xml';

type Headers = Readonly<Record<string, { readonly $ref: string }>>;

/** The response headers the operations share, each registered once as a component. */
export interface SharedHeaders {
  /** What every answer of a limit group carries. */
  readonly rateLimit: Headers;
  readonly retryAfter: Headers;
  /** On a 503: PostgreSQL or Redis did not answer. */
  readonly outageRetryAfter: Headers;
  /** On the reporting API's 500, which is its answer to an outage too (specification.md §2.1 has no 503). */
  readonly outageRetryAfterIfAny: Headers;
  readonly basicChallenge: Headers;
  readonly formChallenge: Headers;
  /** Empty without the admin API. */
  readonly bearerChallenge: Headers;
  readonly surveySession: Headers;
  readonly entityTag: Headers;
}

type HeaderSchema = { readonly type: 'integer'; readonly minimum: number } | { readonly type: 'string' };

function header(registry: OpenAPIRegistry, name: string, description: string, schema: HeaderSchema, component = name, required = true): Headers {
  return { [name]: registry.registerComponent('headers', component, { description, required, schema: { ...schema } }).ref };
}

const OUTAGE_RETRY_AFTER = 'Seconds to wait before trying again: PostgreSQL or Redis did not answer (down, or past DEPENDENCY_TIMEOUT_SECONDS)';

/** The names the challenges and the survey's cookie are sent under, which their features own; no admin realm without the admin API. */
export interface ChallengeNames {
  readonly basicRealm: string;
  readonly adminRealm: string | undefined;
  readonly sessionCookie: string;
}

/** The security schemes, and the headers that the limit groups, the challenges and the survey's cookie add. */
export function registerSharedComponents(registry: OpenAPIRegistry, { basicRealm, adminRealm, sessionCookie }: ChallengeNames): SharedHeaders {
  registry.registerComponent('securitySchemes', BASIC_AUTH, {
    type: 'http',
    scheme: 'basic',
    description: "The temporary login and password that POST /api/auth returns (not the account's own).",
  });
  if (adminRealm !== undefined) {
    registry.registerComponent('securitySchemes', BEARER_AUTH, { type: 'http', scheme: 'bearer', description: "The server's ADMIN_TOKEN." });
  }
  const count = (minimum: number): HeaderSchema => ({ type: 'integer', minimum });
  const text: HeaderSchema = { type: 'string' };
  return {
    rateLimit: {
      ...header(registry, 'X-RateLimit-Limit', 'The most requests of the limit group in one window', count(1)),
      ...header(registry, 'X-RateLimit-Remaining', 'Requests left in the current window, this one counted', count(0)),
      ...header(registry, 'X-RateLimit-Reset', 'The Unix second at which the current window ends (windows are aligned to the clock)', count(0)),
    },
    retryAfter: header(registry, 'Retry-After', 'Seconds until the window ends and requests are counted afresh', count(1)),
    outageRetryAfter: header(registry, 'Retry-After', OUTAGE_RETRY_AFTER, count(1), 'Retry-After-Outage'),
    outageRetryAfterIfAny: header(
      registry,
      'Retry-After',
      `Only when the failure was an outage, not a bug. ${OUTAGE_RETRY_AFTER}`,
      count(1),
      'Retry-After-Outage-If-Any',
      false,
    ),
    basicChallenge: header(registry, 'WWW-Authenticate', `The challenge: Basic realm="${basicRealm}"`, text),
    formChallenge: header(
      registry,
      'WWW-Authenticate',
      `The challenge: Form realm="${basicRealm}" (post the fields again; not Basic, so that browsers do not prompt)`,
      text,
      'WWW-Authenticate-Form',
    ),
    bearerChallenge:
      adminRealm !== undefined
        ? header(registry, 'WWW-Authenticate', `The challenge: Bearer realm="${adminRealm}"`, text, 'WWW-Authenticate-Bearer')
      : {},
    surveySession: header(
      registry,
      'Set-Cookie',
      `${sessionCookie} (${sessionCookie}_{name} for a service of a services file): the survey this call belongs to (HttpOnly, SameSite=Lax); send it back to continue the survey`,
      text,
    ),
    entityTag: header(registry, 'ETag', "The report's entity tag: as If-None-Match, it gets a 304 while the data are unchanged", text),
  };
}

/** A body the server writes as JSON, or as XML when Accept prefers application/xml. */
export function jsonOrXml(json: ZodType, xml: ZodType = json): ZodContentObject {
  return { [JSON_TYPE]: { schema: json }, [XML_TYPE]: { schema: xml } };
}

export function jsonOnly(schema: ZodType): ZodContentObject {
  return { [JSON_TYPE]: { schema } };
}

/** An answer with the error body of the one error catalogue, in JSON and XML where the server negotiates. */
export function errorResponse(description: string, { xml, headers = {} }: { readonly xml: boolean; readonly headers?: Headers }): ResponseConfig {
  return { description, headers: { ...headers, ...ERROR_CODE }, content: xml ? jsonOrXml(errorBodySchema) : jsonOnly(errorBodySchema) };
}

/** The refusal's code in the error catalogue, on every error answer (src/http/representation.ts). */
const ERROR_CODE = {
  [ERROR_CODE_HEADER]: {
    description: "The refusal's stable code in the server's error catalogue (docs/errors.md says when each is answered); the body's message may change, the code does not",
    required: true,
    schema: { type: 'string', enum: Object.keys(ERROR_CODES) },
  },
} as const;
