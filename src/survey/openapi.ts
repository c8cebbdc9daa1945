import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import type { RateLimitSettings } from '../rate-limit/settings';
import type { SurveySettings } from './settings';
import { restCallFormSchemas } from './rest/rest-request';
import { answers, type SurveyServiceSettings } from './services/survey-service';
import { SURVEY_OPERATIONS, SURVEY_SERVICE } from './soap/wsdl';
import { errorResponse, FORM_TYPE, JSON_TYPE, type SharedHeaders } from '../http/openapi/components';
import type { ExampleExchange } from '../http/openapi/examples';

export const SURVEY_TAG = 'Survey web service';

const SOAP_TYPE = 'text/xml';
const TEXT_TYPE = 'text/plain';

/** What the document says of the survey services: each one's paths and flavours, and their shared bounds. */
export interface DescribedSurveys {
  readonly services: readonly Pick<SurveyServiceSettings, 'name' | 'soapPath' | 'plumPath' | 'restPath' | 'flavours' | 'sessionCookie'>[];
  /** Set when a services file names them: each one's operations then carry its name. */
  readonly named: boolean;
  readonly maxBytes: SurveySettings['maxBytes'];
  readonly messageLimits: SurveySettings['messageLimits'];
}

interface DescribedSurvey {
  readonly publicUrl: string | undefined;
  readonly rateLimits: RateLimitSettings;
  readonly survey: DescribedSurveys;
}

type DescribedService = DescribedSurveys['services'][number];

/** An operation's id: as the single service has it, or followed by the service's name (svcEvalConsent) when a services file names them. */
export function surveyOperationId(operationId: string, service: Pick<DescribedService, 'name'>, named: boolean): string {
  if (!named) return operationId;
  return operationId + service.name.replace(/(^|-)([a-z0-9])/g, (_match, _dash: string, first: string) => first.toUpperCase());
}

/** The operation ids that the examples of the survey services attach to: the first service's of each flavour. */
export function surveyExampleOperations({ services, named }: DescribedSurveys): { svcEval?: string; rest?: string } {
  const soap = services.find((service) => answers(service, 'svcEval'));
  const rest = services.find((service) => answers(service, 'rest'));
  return {
    ...(soap === undefined ? {} : { svcEval: surveyOperationId('svcEval', soap, named) }),
    ...(rest === undefined ? {} : { rest: surveyOperationId('svcEvalRest', rest, named) }),
  };
}

/** Where a WSDL is: absolute with PUBLIC_URL, else relative to the server that serves the document. */
export function wsdlAddress(publicUrl: string | undefined, path: string): string {
  return `${publicUrl ?? ''}${path}?wsdl`;
}

const sessionCookie = (name: string) =>
  z.object({ [name]: z.string().optional().meta({ description: 'Continues the survey whose answer set it; without it, a call starts a new survey' }) });

const xmlBody = (description: string) => ({ [SOAP_TYPE]: { schema: z.string().meta({ description }) } });

/**
 * The survey web services, each its own operations: for each SOAP operation it answers, its WSDL on GET
 * and its calls on POST (the WSDL is the contract; OpenAPI can only say that an XML envelope goes in and
 * out), and its REST twin when it answers that flavour.
 */
export function registerSurveyOperations(registry: OpenAPIRegistry, headers: SharedHeaders, { publicUrl, rateLimits, survey }: DescribedSurvey): void {
  for (const service of survey.services) registerServiceOperations(registry, headers, { publicUrl, rateLimits, survey }, service);
}

function registerServiceOperations(
  registry: OpenAPIRegistry,
  headers: SharedHeaders,
  { publicUrl, rateLimits, survey }: DescribedSurvey,
  service: DescribedService,
): void {
  const limit = `${rateLimits.survey} calls (SOAP and REST together, every survey service) per ${rateLimits.windowSeconds} s per client address`;
  const answered = { ...headers.rateLimit, ...headers.surveySession };
  const id = (operationId: string) => surveyOperationId(operationId, service, survey.named);
  const cookies = sessionCookie(service.sessionCookie);
  const which = survey.named ? ` (survey service ${service.name})` : '';

  const soapServices = [
    {
      path: service.soapPath,
      variable: survey.named ? 'its path' : 'SOAP_PATH',
      operation: 'svcEval',
      wsdlOperationId: 'getWsdl',
      parts: 'question_texts and answers (two ArrayOfstring, indexed alike)',
    },
    {
      path: service.plumPath,
      variable: survey.named ? 'its path + /plum' : 'SURVEY_PLUM_PATH',
      operation: 'plumEval',
      wsdlOperationId: 'getPlumEvalWsdl',
      parts: 'question_texts and answers (two ArrayOfstring, indexed alike), ani_ip, dnis and session_id (strings)',
    },
  ] as const;
  const served = SURVEY_OPERATIONS.filter((operation) => answers(service, operation));
  for (const { path, variable, operation, wsdlOperationId, parts } of soapServices.filter((soap) => served.includes(soap.operation))) {
    const wsdl = { url: wsdlAddress(publicUrl, path), description: `The WSDL of ${operation}: the contract of the SOAP service` };
    registry.registerPath({
      method: 'get',
      path,
      operationId: id(wsdlOperationId),
      tags: [SURVEY_TAG],
      summary: `The WSDL of ${operation}${which}`,
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
      operationId: id(operation),
      tags: [SURVEY_TAG],
      summary: `${operation} over SOAP 1.1${which}`,
      description:
        `rpc/encoded, as the WSDL describes: ${parts} in, one string out; an absent array is an empty one. ` +
        (served.length > 1
          ? `A call of the other operation (${served.filter((other) => other !== operation).join(', ')}) is answered here too. `
          : `A call of another operation is a soap:Client fault. `) +
        `${limit}. ` +
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
        cookies,
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

  if (!answers(service, 'rest')) return;
  const forms = restCallFormSchemas(survey.messageLimits);
  registry.registerPath({
    method: 'post',
    path: service.restPath,
    operationId: id('svcEvalRest'),
    tags: [SURVEY_TAG],
    summary: `svcEval as a form post (the REST twin)${which}`,
    description:
      'The same call as a form, for survey systems that post forms: the same parts and bounds, recordings as files, the same ' +
      `handler and sessions. ${limit}. Errors are the API's error bodies.`,
    security: [],
    request: {
      cookies,
      body: {
        required: true,
        content: { 'multipart/form-data': { schema: forms.multipart }, [FORM_TYPE]: { schema: forms.form } },
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

const SOAP_CALL =
  '<?xml version="1.0" encoding="UTF-8"?>\n' +
  '<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/" xmlns:ns1="urn:SampleWebservice" ' +
  'xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:SOAP-ENC="http://schemas.xmlsoap.org/soap/encoding/" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" SOAP-ENV:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/">\n' +
  '  <SOAP-ENV:Body>\n' +
  '    <ns1:svcEval>\n' +
  '      <question_texts SOAP-ENC:arrayType="xsd:string[1]" xsi:type="ns1:ArrayOfstring">\n' +
  '        <item xsi:type="xsd:string">Do you agree?</item>\n' +
  '      </question_texts>\n' +
  '      <answers SOAP-ENC:arrayType="xsd:string[1]" xsi:type="ns1:ArrayOfstring">\n' +
  '        <item xsi:type="xsd:string">yes</item>\n' +
  '      </answers>\n' +
  '    </ns1:svcEval>\n' +
  '  </SOAP-ENV:Body>\n' +
  '</SOAP-ENV:Envelope>\n';

const SOAP_ANSWER =
  '<?xml version="1.0" encoding="UTF-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ' +
  'xmlns:tns="urn:SampleWebservice" soap:encodingStyle="http://schemas.xmlsoap.org/soap/encoding/"><soap:Body>' +
  '<tns:svcEvalResponse><svcEvalResponse>accepted</svcEvalResponse></tns:svcEvalResponse></soap:Body></soap:Envelope>';

/** Written on the single service's operations: surveyExamples puts them on those of the services there are. */
const SURVEY_EXAMPLES: readonly ExampleExchange[] = [
  {
    name: 'yes',
    summary: "A page answered 'yes': accepted",
    operationId: 'svcEval',
    headers: { SOAPAction: '"urn:SampleWebserviceAction"' },
    body: { mediaType: SOAP_TYPE, value: SOAP_CALL },
    response: { status: 200, mediaType: SOAP_TYPE, body: SOAP_ANSWER },
  },
  {
    name: 'yes',
    summary: "A page answered 'yes': accepted",
    operationId: 'svcEvalRest',
    body: { mediaType: FORM_TYPE, value: { question_texts: ['Do you agree?'], answers: ['yes'] } },
    response: { status: 200, mediaType: TEXT_TYPE, body: 'accepted' },
  },
  {
    name: 'unequalArrays',
    summary: 'Two questions, one answer',
    operationId: 'svcEvalRest',
    body: { mediaType: FORM_TYPE, value: { question_texts: ['Do you agree?', 'May we call you?'], answers: ['yes'] } },
    response: {
      status: 400,
      mediaType: JSON_TYPE,
      body: { error: 'question_texts has 2 items but answers has 1 item; answers[i] must be the answer to question_texts[i]' },
    },
  },
];

/** The survey's part of the session, on the operations given (surveyExampleOperations); none for a flavour no service answers. */
export function surveyExamples(operations: { readonly svcEval?: string; readonly rest?: string }): ExampleExchange[] {
  return SURVEY_EXAMPLES.flatMap((exchange) => {
    const operationId = exchange.operationId === 'svcEval' ? operations.svcEval : operations.rest;
    return operationId === undefined ? [] : [{ ...exchange, operationId }];
  });
}
