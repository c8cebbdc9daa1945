import { z } from 'zod';

/**
 * The paths the server's own routes answer (the reporting and admin APIs, the API reference and its
 * document, the dashboard's files and the call inspector's page, the probes and the metrics): a survey service mounted on one of
 * them would hide the route or be hidden by it, depending on the order.
 */
const RESERVED_PATHS = ['/api', '/admin', '/docs', '/openapi.json', '/dashboard', '/inspector', '/healthz', '/readyz', '/metrics'] as const;

/** An absolute URL path of plain segments, so it is safe in routes, cookies and the WSDL. */
export const urlPath = z
  .string()
  .trim()
  .regex(/^(\/[A-Za-z0-9._~-]+)+\/?$/, 'must be a path such as /survey')
  .transform((value) => value.replace(/\/+$/, ''))
  .refine(
    (value) => !RESERVED_PATHS.some((taken) => value === taken || value.startsWith(`${taken}/`)),
    `must not be one of the server's own paths or under them: ${RESERVED_PATHS.join(', ')}`,
  );

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
