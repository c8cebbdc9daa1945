import path from 'node:path';
import { z } from 'zod';
import { mistakeText } from '../config/positioned-file';
import { flag, integer, oneOf, optionalText } from '../config/variables';
import type { EvaluationBounds } from './evaluation-bounds';
import { SESSION_COOKIE } from './sessions/session-cookie';
import { readServicesFile } from './services/services-file';
import { defaultPlumPath, defaultRestPath, SURVEY_FLAVOURS, urlPath, type SurveyServiceSettings } from './services/survey-service';

/** The variables of the single service, which a services file replaces: set with SURVEY_SERVICES, they are a mistake. */
const SINGLE_SERVICE_VARIABLES = ['SOAP_PATH', 'SURVEY_REST_PATH', 'SURVEY_PLUM_PATH', 'SURVEY_HANDLER'] as const;

/** The single service of SOAP_PATH, as it was before services files: named survey, its sessions unscoped. */
function singleService(variables: {
  readonly SOAP_PATH?: string | undefined;
  readonly SURVEY_REST_PATH?: string | undefined;
  readonly SURVEY_PLUM_PATH?: string | undefined;
  readonly SURVEY_HANDLER?: string | undefined;
}): SurveyServiceSettings {
  const soapPath = variables.SOAP_PATH ?? '/survey';
  return {
    name: 'survey',
    soapPath,
    plumPath: variables.SURVEY_PLUM_PATH ?? defaultPlumPath(soapPath),
    restPath: variables.SURVEY_REST_PATH ?? defaultRestPath(soapPath),
    flavours: [...SURVEY_FLAVOURS],
    handler: variables.SURVEY_HANDLER === undefined ? undefined : { file: variables.SURVEY_HANDLER, setting: `SURVEY_HANDLER=${JSON.stringify(variables.SURVEY_HANDLER)}` },
    sessionCookie: SESSION_COOKIE,
    sessionScope: '',
  };
}

/** The survey web service: where it answers, its handler, its sessions, and the bounds on one message. */
export const surveySettings = z
  .object({
    SOAP_PATH: urlPath.optional(),
    SOAP_MAX_BYTES: integer(1).default(10_485_760),
    SURVEY_MAX_BYTES_HELD: integer(1).default(67_108_864),
    SURVEY_HANDLER: optionalText,
    SURVEY_RELOAD: flag.default(false),
    SURVEY_SESSION_TTL_SECONDS: integer(1).default(3600),
    SURVEY_HANDLER_TIMEOUT_SECONDS: integer(1, 3600).default(10),
    SURVEY_MAX_STATE_BYTES: integer(64).default(16_384),
    SURVEY_HANDLER_ISOLATION: oneOf(['event-loop', 'worker']).default('event-loop'),
    SURVEY_REST_PATH: urlPath.optional(),
    SURVEY_PLUM_PATH: urlPath.optional(),
    SURVEY_MAX_SESSIONS: integer(1).default(100_000),
    SURVEY_MAX_DEPTH: integer(5, 1000).default(32),
    SURVEY_MAX_ELEMENTS: integer(5).default(10_000),
    SURVEY_MAX_ITEMS: integer(1).default(1000),
    SURVEY_MAX_ATTRIBUTES: integer(6).default(32),
    SURVEY_MAX_TEXT_LENGTH: integer(1).default(10_485_760),
    SURVEY_SERVICES: optionalText,
  })
  .superRefine((variables, context) => {
    if (variables.SURVEY_MAX_BYTES_HELD < variables.SOAP_MAX_BYTES) {
      context.addIssue({ code: 'custom', path: ['SURVEY_MAX_BYTES_HELD'], message: 'must be at least SOAP_MAX_BYTES: a call of the largest size must fit' });
    }
    if (variables.SURVEY_SERVICES !== undefined) {
      for (const name of SINGLE_SERVICE_VARIABLES) {
        if (variables[name] !== undefined) {
          context.addIssue({ code: 'custom', path: [name], message: 'is the single service\'s: with SURVEY_SERVICES, each service\'s path and handler are in the services file' });
        }
      }
      return;
    }
    // Compared as Express routes them: in any letter case.
    const service = singleService(variables);
    const [soapPath, restPath, plumPath] = [service.soapPath, service.restPath, service.plumPath].map((path) => path.toLowerCase());
    if (restPath === soapPath) {
      context.addIssue({ code: 'custom', path: ['SURVEY_REST_PATH'], message: 'must differ from SOAP_PATH, in any letter case' });
    }
    if (plumPath === soapPath || plumPath === restPath) {
      context.addIssue({ code: 'custom', path: ['SURVEY_PLUM_PATH'], message: 'must differ from SOAP_PATH and SURVEY_REST_PATH, in any letter case' });
    }
  })
  .transform((variables, context) => ({
    /**
     * The survey services: SURVEY_SERVICES's file, read at start; without it the single service of
     * SOAP_PATH, SURVEY_PLUM_PATH, SURVEY_REST_PATH and SURVEY_HANDLER (the sample's logic unless set).
     */
    services: variables.SURVEY_SERVICES === undefined ? [singleService(variables)] : servicesFromFile(variables.SURVEY_SERVICES, context),
    /** SURVEY_SERVICES: set, the services are named by it (their names show in the banner and the API reference). */
    servicesFile: variables.SURVEY_SERVICES,
    /** A message's bytes at most, after decompression. */
    maxBytes: variables.SOAP_MAX_BYTES,
    /** The bytes of all calls' bodies held at once, from their first byte read until they are answered. */
    maxBytesHeld: variables.SURVEY_MAX_BYTES_HELD,
    /** Development: each service's handler module or rules file is read again on the first call after it changed. */
    reload: variables.SURVEY_RELOAD,
    sessionTtlSeconds: variables.SURVEY_SESSION_TTL_SECONDS,
    /** How long a service's handler may take, and how much it may return, before the call gets a soap:Server fault instead. */
    evaluation: {
      timeoutSeconds: variables.SURVEY_HANDLER_TIMEOUT_SECONDS,
      // A response goes back in one message: no larger than the largest message the service takes.
      maxResponseBytes: variables.SOAP_MAX_BYTES,
      maxStateBytes: variables.SURVEY_MAX_STATE_BYTES,
    } satisfies EvaluationBounds,
    /**
     * Where a handler module runs: on the event loop, as every request does (a handler that never yields
     * holds them all), or on a worker thread stopped when a call takes longer than the handler timeout.
     */
    isolation: variables.SURVEY_HANDLER_ISOLATION,
    /** Live survey sessions kept at most; beyond it the longest idle is forgotten first. */
    maxSessions: variables.SURVEY_MAX_SESSIONS,
    messageLimits: {
      maxDepth: variables.SURVEY_MAX_DEPTH,
      maxElements: variables.SURVEY_MAX_ELEMENTS,
      maxItems: variables.SURVEY_MAX_ITEMS,
      maxAttributes: variables.SURVEY_MAX_ATTRIBUTES,
      maxTextLength: variables.SURVEY_MAX_TEXT_LENGTH,
    } satisfies SurveyMessageLimits,
  }));

export type SurveySettings = z.output<typeof surveySettings>;

/** The services of SURVEY_SERVICES's file; each mistake of the file is one problem of the start, with its line and column. */
function servicesFromFile(filePath: string, context: z.core.$RefinementCtx): SurveyServiceSettings[] {
  let reading: ReturnType<typeof readServicesFile>;
  try {
    reading = readServicesFile(filePath);
  } catch (error) {
    context.issues.push({ code: 'custom', path: ['SURVEY_SERVICES'], input: filePath, message: `cannot read ${path.resolve(filePath)}: ${(error as Error).message}` });
    return [];
  }
  if (reading.ok) return reading.value;
  for (const mistake of reading.mistakes) {
    context.issues.push({ code: 'custom', path: ['SURVEY_SERVICES'], input: filePath, message: mistakeText(mistake) });
  }
  return [];
}

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
