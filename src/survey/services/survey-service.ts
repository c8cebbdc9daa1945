import { z } from 'zod';
import { ownPathOf } from '../../http/own-paths';

/** Segments of the characters a URL needs no escape for, and the slashes between them. */
const PATH_CHARACTERS = /^\/[A-Za-z0-9._~/-]*$/;

/** Why a service path, one trailing slash dropped, cannot be one; undefined when it can. */
function pathMistake(path: string): string | undefined {
  if (!PATH_CHARACTERS.test(path) || path === '/') return 'must be a path such as /survey';
  const segments = path.slice(1).split('/');
  if (segments.includes('')) return 'must not have an empty segment (//): proxies merge the slashes, and the calls would not reach it';
  if (segments.some((segment) => segment === '.' || segment === '..')) {
    return `must not have a . or .. segment: clients resolve it before they send, so ${path} is called as ${new URL(path, 'http://host').pathname}`;
  }
  const own = ownPathOf(path);
  if (own === undefined) return undefined;
  const where = path.toLowerCase() === own.path ? 'is' : 'is under';
  const letterCase = path.startsWith(own.path) ? '' : ' in another letter case, which Express routes alike';
  return `${where} the server's own ${own.path} (${own.serves})${letterCase}`;
}

/**
 * An absolute URL path of plain segments, outside the server's own (src/http/own-paths.ts), so it is safe in
 * routes, cookies and the WSDL; one trailing slash is dropped.
 */
export const urlPath = z
  .string()
  .trim()
  .transform((value, context) => {
    const path = value.length > 1 && value.endsWith('/') ? value.slice(0, -1) : value;
    const mistake = pathMistake(path);
    if (mistake === undefined) return path;
    context.addIssue({ code: 'custom', message: mistake, input: value });
    return z.NEVER;
  });

/** The ways a survey system calls a service: the two SOAP operations, each with its WSDL, and the form post. */
export const SURVEY_FLAVOURS = ['svcEval', 'plumEval', 'rest'] as const;
export type SurveyFlavour = (typeof SURVEY_FLAVOURS)[number];

export const defaultPlumPath = (soapPath: string) => `${soapPath}/plum`;
export const defaultRestPath = (soapPath: string) => `${soapPath}/rest`;

/** The handler module or rules file of a service, and where its path was set, for the messages that name it. */
export interface SurveyHandlerSource {
  /** As written; a relative one is resolved from the working directory (the services file's own are made absolute). */
  readonly file: string;
  /** `SURVEY_HANDLER="..."`, or the services file and the entry. */
  readonly setting: string;
}

/** One survey web service: where it answers, what, with which logic, and whose sessions. */
export interface SurveyServiceSettings {
  /** Its name, as the call inspector and the API reference show it. */
  readonly name: string;
  /** svcEval's WSDL, and calls (of its flavours) on POST. */
  readonly soapPath: string;
  /** plumEval's WSDL, and calls (of its flavours) on POST. */
  readonly plumPath: string;
  /** The form post (the REST twin). */
  readonly restPath: string;
  /** The flavours it answers: the others' paths are not served, and a SOAP call of an operation not listed is a soap:Client fault. */
  readonly flavours: readonly SurveyFlavour[];
  /** Its logic; undefined: the specification's sample. */
  readonly handler: SurveyHandlerSource | undefined;
  /** The cookie that ties the calls of one of its surveys together. */
  readonly sessionCookie: string;
  /**
   * What its sessions' keys in the store begin with, so that no two services share a survey: '' for the
   * single service of SOAP_PATH (so its sessions are as they always were).
   */
  readonly sessionScope: string;
}

/** Whether a service answers a flavour. */
export function answers(service: Pick<SurveyServiceSettings, 'flavours'>, flavour: SurveyFlavour): boolean {
  return service.flavours.includes(flavour);
}

type ServicePaths = Pick<SurveyServiceSettings, 'soapPath' | 'plumPath' | 'restPath' | 'flavours'>;

/** The paths a service answers on, each with its flavour. */
export function servedPaths(service: ServicePaths): { readonly path: string; readonly flavour: SurveyFlavour }[] {
  const byFlavour = { svcEval: service.soapPath, plumEval: service.plumPath, rest: service.restPath } as const;
  return service.flavours.map((flavour) => ({ path: byFlavour[flavour], flavour }));
}

/** The paths of a service's WSDLs: those of the SOAP operations it answers. */
export function wsdlPaths(service: ServicePaths): { readonly path: string; readonly flavour: Exclude<SurveyFlavour, 'rest'> }[] {
  return servedPaths(service).filter((served): served is { path: string; flavour: Exclude<SurveyFlavour, 'rest'> } => served.flavour !== 'rest');
}
