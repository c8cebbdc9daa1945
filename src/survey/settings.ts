import { z } from 'zod';
import { flag, integer, optionalText } from '../config/variables';

/**
 * The paths the server's own routes answer (the reporting and admin APIs, the API reference and its
 * document, the dashboard's files, the probes and the metrics): the survey service mounted on one of
 * them would hide the route or be hidden by it, depending on the order.
 */
const RESERVED_PATHS = ['/api', '/admin', '/docs', '/openapi.json', '/dashboard', '/healthz', '/readyz', '/metrics'] as const;

/** An absolute URL path of plain segments, so it is safe in routes, cookies and the WSDL. */
const urlPath = z
  .string()
  .trim()
  .regex(/^(\/[A-Za-z0-9._~-]+)+\/?$/, 'must be a path such as /survey')
  .transform((value) => value.replace(/\/+$/, ''))
  .refine(
    (value) => !RESERVED_PATHS.some((taken) => value === taken || value.startsWith(`${taken}/`)),
    `must not be one of the server's own paths or under them: ${RESERVED_PATHS.join(', ')}`,
  );

const defaultRestPath = (soapPath: string) => `${soapPath}/rest`;
const defaultPlumPath = (soapPath: string) => `${soapPath}/plum`;

/** The survey web service: where it answers, its handler, its sessions, and the bounds on one message. */
export const surveySettings = z
  .object({
    SOAP_PATH: urlPath.default('/survey'),
    SOAP_MAX_BYTES: integer(1).default(10_485_760),
    SURVEY_HANDLER: optionalText,
    SURVEY_RELOAD: flag.default(false),
    SURVEY_SESSION_TTL_SECONDS: integer(1).default(3600),
    SURVEY_HANDLER_TIMEOUT_SECONDS: integer(1, 3600).default(10),
    SURVEY_REST_PATH: urlPath.optional(),
    SURVEY_PLUM_PATH: urlPath.optional(),
    SURVEY_MAX_SESSIONS: integer(1).default(100_000),
    SURVEY_MAX_DEPTH: integer(5, 1000).default(32),
    SURVEY_MAX_ELEMENTS: integer(5).default(10_000),
    SURVEY_MAX_ITEMS: integer(1).default(1000),
    SURVEY_MAX_ATTRIBUTES: integer(6).default(32),
    SURVEY_MAX_TEXT_LENGTH: integer(1).default(10_485_760),
    SURVEY_INSPECT_CALLS: integer(0, 10_000).default(200),
  })
  .superRefine((variables, context) => {
    const restPath = variables.SURVEY_REST_PATH ?? defaultRestPath(variables.SOAP_PATH);
    if (restPath === variables.SOAP_PATH) {
      context.addIssue({ code: 'custom', path: ['SURVEY_REST_PATH'], message: 'must differ from SOAP_PATH' });
    }
    const plumPath = variables.SURVEY_PLUM_PATH ?? defaultPlumPath(variables.SOAP_PATH);
    if (plumPath === variables.SOAP_PATH || plumPath === restPath) {
      context.addIssue({ code: 'custom', path: ['SURVEY_PLUM_PATH'], message: 'must differ from SOAP_PATH and SURVEY_REST_PATH' });
    }
  })
  .transform((variables) => ({
    /** svcEval's SOAP service and its WSDL. */
    soapPath: variables.SOAP_PATH,
    /** Path of the plumEval SOAP service and its WSDL; SOAP_PATH + /plum unless set. */
    plumPath: variables.SURVEY_PLUM_PATH ?? defaultPlumPath(variables.SOAP_PATH),
    /** Path of the service's REST twin (multipart form posts); SOAP_PATH + /rest unless set. */
    restPath: variables.SURVEY_REST_PATH ?? defaultRestPath(variables.SOAP_PATH),
    /** A message's bytes at most, after decompression. */
    maxBytes: variables.SOAP_MAX_BYTES,
    /** Module path of a custom survey handler, resolved from the working directory; unset: the sample. */
    handler: variables.SURVEY_HANDLER,
    /** Development: SURVEY_HANDLER's file is read again on the first call after it changed. */
    reload: variables.SURVEY_RELOAD,
    sessionTtlSeconds: variables.SURVEY_SESSION_TTL_SECONDS,
    /** How long SURVEY_HANDLER's function may take before the call gets a soap:Server fault. */
    handlerTimeoutSeconds: variables.SURVEY_HANDLER_TIMEOUT_SECONDS,
    /** Live survey sessions kept at most; beyond it the longest idle is forgotten first. */
    maxSessions: variables.SURVEY_MAX_SESSIONS,
    /**
     * The last calls kept in memory for GET /admin/survey/calls (the call inspector), per instance; 0:
     * none kept. Only with ADMIN_TOKEN, without which nobody could read them.
     */
    inspectCalls: variables.SURVEY_INSPECT_CALLS,
    messageLimits: {
      maxDepth: variables.SURVEY_MAX_DEPTH,
      maxElements: variables.SURVEY_MAX_ELEMENTS,
      maxItems: variables.SURVEY_MAX_ITEMS,
      maxAttributes: variables.SURVEY_MAX_ATTRIBUTES,
      maxTextLength: variables.SURVEY_MAX_TEXT_LENGTH,
    } satisfies SurveyMessageLimits,
  }));

export type SurveySettings = z.output<typeof surveySettings>;

/**
 * Bounds on one svcEval message, enforced while it is read: a page has tens of questions, not
 * thousands, and a recording is one long text.
 */
export interface SurveyMessageLimits {
  /** Elements nested in each other, the envelope counting as one. */
  readonly maxDepth: number;
  /** Elements in the whole message. */
  readonly maxElements: number;
  /** Items of one array part (question_texts, answers). */
  readonly maxItems: number;
  /** Attributes, namespace declarations included, of one element. */
  readonly maxAttributes: number;
  /** Characters of one text: an item, an optional part or a form field. */
  readonly maxTextLength: number;
}
