import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { RateLimitSettings } from '../rate-limit/settings';
import type { SurveySettings } from './settings';
import { restCallFormSchemas } from './rest-request';
import { SESSION_COOKIE } from './session-cookie';
import { SURVEY_OPERATIONS, SURVEY_SERVICE } from './wsdl';
import { errorResponse, type SharedHeaders } from '../openapi/components';

export const SURVEY_TAG = 'Survey web service';

const SOAP_TYPE = 'text/xml';
const TEXT_TYPE = 'text/plain';

interface DescribedSurvey {
  readonly publicUrl: string | undefined;
  readonly rateLimits: RateLimitSettings;
  readonly survey: Pick<SurveySettings, 'soapPath' | 'restPath' | 'plumPath' | 'maxBytes' | 'messageLimits'>;
}

/** Where a WSDL is: absolute with PUBLIC_URL, else relative to the server that serves the document. */
export function wsdlAddress(publicUrl: string | undefined, path: string): string {
  return `${publicUrl ?? ''}${path}?wsdl`;
}

const sessionCookie = z.object({
  [SESSION_COOKIE]: z.string().optional().meta({ description: 'Continues the survey whose answer set it; without it, a call starts a new survey' }),
});

const xmlBody = (description: string) => ({ [SOAP_TYPE]: { schema: z.string().meta({ description }) } });

/**
 * The survey web service: svcEval's WSDL at SOAP_PATH and plumEval's at SURVEY_PLUM_PATH, each path
 * answering calls of either over SOAP 1.1 (the WSDL is the contract; OpenAPI can only say that an XML
 * envelope goes in and out), and the REST twin at SURVEY_REST_PATH.
 */
export function registerSurveyOperations(registry: OpenAPIRegistry, headers: SharedHeaders, { publicUrl, rateLimits, survey }: DescribedSurvey): void {
  const limit = `${rateLimits.survey} calls (SOAP and REST together) per ${rateLimits.windowSeconds} s per client address`;
  const answered = { ...headers.rateLimit, ...headers.surveySession };

  const soapServices = [
    { path: survey.soapPath, variable: 'SOAP_PATH', operation: 'svcEval', wsdlOperationId: 'getWsdl', parts: 'question_texts and answers (two ArrayOfstring, indexed alike)' },
    {
      path: survey.plumPath,
      variable: 'SURVEY_PLUM_PATH',
      operation: 'plumEval',
      wsdlOperationId: 'getPlumEvalWsdl',
      parts: 'question_texts and answers (two ArrayOfstring, indexed alike), ani_ip, dnis and session_id (strings)',
    },
  ] as const;
  for (const { path, variable, operation, wsdlOperationId, parts } of soapServices) {
    const wsdl = { url: wsdlAddress(publicUrl, path), description: `The WSDL of ${operation}: the contract of the SOAP service` };
    registry.registerPath({
      method: 'get',
      path,
      operationId: wsdlOperationId,
      tags: [SURVEY_TAG],
      summary: `The WSDL of ${operation}`,
      description: `Its soap:address is ${publicUrl === undefined ? "the request's origin" : 'PUBLIC_URL'} and ${variable}. Not rate-limited.`,
      externalDocs: wsdl,
      security: [],
      request: {
        query: z.object({ wsdl: z.string().optional().meta({ description: 'By convention (?wsdl); the WSDL is served with or without it' }) }),
      },
      responses: { 200: { description: 'The WSDL', content: xmlBody('A WSDL 1.1 document') } },
    });

    registry.registerPath({
      method: 'post',
      path,
      operationId: operation,
      tags: [SURVEY_TAG],
      summary: `${operation} over SOAP 1.1`,
      description:
        `rpc/encoded, as the WSDL describes: ${parts} in, one string out; an absent array is an empty one. ` +
        `A call of the other operation (${SURVEY_OPERATIONS.filter((other) => other !== operation).join(', ')}) is answered here too. ${limit}. ` +
        'Every failure is a SOAP 1.1 Fault: soap:Client for the caller\'s mistakes, soap:Server otherwise.',
      externalDocs: wsdl,
      security: [],
      request: {
        headers: z.object({
          SOAPAction: z
            .string()
            .optional()
            .meta({ description: `${SURVEY_SERVICE.soapAction}, quoted or not, or none; any other action is a soap:Client fault` }),
        }),
        cookies: sessionCookie,
        body: { required: true, content: xmlBody(`A SOAP 1.1 envelope whose Body holds one ${SURVEY_OPERATIONS.join(' or ')} element`) },
      },
      responses: {
        200: { description: 'The answer', headers: answered, content: xmlBody(`A SOAP 1.1 envelope holding ${operation}Response (svcEvalResponse for a svcEval call)`) },
        413: { description: `The body is larger than SOAP_MAX_BYTES (${survey.maxBytes} bytes)`, content: xmlBody('A SOAP 1.1 Fault') },
        429: {
          description: 'Past the limit of the window: retry after Retry-After seconds',
          headers: { ...headers.rateLimit, ...headers.retryAfter },
          content: xmlBody('A SOAP 1.1 Fault'),
        },
        500: {
          description:
            "A SOAP 1.1 Fault: the faultcode says whose mistake it was; a soap:Server fault naming PostgreSQL or Redis, with Retry-After, when the store of the surveys did not answer",
          headers: headers.outageRetryAfterIfAny,
          content: xmlBody('A SOAP 1.1 Fault'),
        },
      },
    });
  }

  const forms = restCallFormSchemas(survey.messageLimits);
  registry.registerPath({
    method: 'post',
    path: survey.restPath,
    operationId: 'svcEvalRest',
    tags: [SURVEY_TAG],
    summary: 'svcEval as a form post (the REST twin)',
    description:
      'The same call as a form, for survey systems that post forms: the same parts and bounds, recordings as files, the same ' +
      `handler and sessions. ${limit}. Errors are the API's error bodies.`,
    security: [],
    request: {
      cookies: sessionCookie,
      body: {
        required: true,
        content: { 'multipart/form-data': { schema: forms.multipart }, 'application/x-www-form-urlencoded': { schema: forms.form } },
      },
    },
    responses: {
      200: {
        description: 'The answer, which the survey system stores as the response of the question',
        headers: answered,
        content: { [TEXT_TYPE]: { schema: z.string().meta({ description: "The handler's answer" }) } },
      },
      400: errorResponse('A form that breaks a rule of the call (missing or unequal arrays, a bound, a file no answer names)', {
        xml: true,
        headers: headers.rateLimit,
      }),
      413: errorResponse(`The body is larger than SOAP_MAX_BYTES (${survey.maxBytes} bytes)`, { xml: true, headers: headers.rateLimit }),
      415: errorResponse('A body that is not multipart/form-data or application/x-www-form-urlencoded', { xml: true, headers: headers.rateLimit }),
      429: errorResponse('Past the limit of the window: retry after Retry-After seconds', {
        xml: true,
        headers: { ...headers.rateLimit, ...headers.retryAfter },
      }),
      500: errorResponse('The survey handler failed: the cause is in the server log', { xml: true }),
      503: errorResponse('PostgreSQL or Redis, which keep the surveys, did not answer, as the error says: retry after Retry-After seconds', {
        xml: true,
        headers: headers.outageRetryAfter,
      }),
    },
  });
}
