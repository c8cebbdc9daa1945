import path from 'node:path';
import { z } from 'zod';
import { readPositionedFile, type FileReading } from '../../config/positioned-file';
import { SESSION_COOKIE } from '../sessions/session-cookie';
import { defaultPlumPath, defaultRestPath, SURVEY_FLAVOURS, urlPath, type SurveyServiceSettings } from './survey-service';

/** A name that is safe in a path, a cookie's name and a session key. */
const SERVICE_NAME = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** zod's message for a key a mapping does not know, naming the keys it does. */
const unknownKey = (known: string) => (issue: { code?: string; keys?: string[] }) =>
  issue.code === 'unrecognized_keys' ? `unknown key ${JSON.stringify(issue.keys?.[0])}; use ${known}` : undefined;

const serviceEntry = z.strictObject({
  name: z.string().regex(SERVICE_NAME, 'must be 1 to 40 lowercase letters, digits or -, such as consent'),
  path: urlPath.optional(),
  flavours: z
    .array(z.enum(SURVEY_FLAVOURS, { error: `must be one of ${SURVEY_FLAVOURS.join(', ')}` }))
    .min(1, `must list at least one of ${SURVEY_FLAVOURS.join(', ')}`)
    .refine((flavours) => new Set(flavours).size === flavours.length, 'must not list a flavour twice')
    .optional(),
  handler: z.string().trim().min(1, 'must be the path of a handler module or rules file').optional(),
}, { error: unknownKey('name, path, flavours or handler') });

type ServiceEntry = z.output<typeof serviceEntry>;

const servicePath = (entry: ServiceEntry) => entry.path ?? `/survey/${entry.name}`;

/** Every path an entry answers on (all three, whatever its flavours: a path is one service's, answered or not). */
function entryPaths(entry: ServiceEntry): string[] {
  const soapPath = servicePath(entry);
  return [soapPath, defaultPlumPath(soapPath), defaultRestPath(soapPath)];
}

/** The services file: a list of services, their names and paths each one service's (paths compared as Express routes them: in any case). */
export const servicesFileSchema = z
  .strictObject({ services: z.array(serviceEntry).min(1, 'must list at least one service') }, { error: unknownKey('services') })
  .superRefine(({ services }, context) => {
    const names = new Map<string, number>();
    const paths = new Map<string, string>();
    for (const [index, entry] of services.entries()) {
      const earlier = names.get(entry.name);
      if (earlier !== undefined) {
        context.addIssue({ code: 'custom', path: ['services', index, 'name'], message: `is the name of services[${earlier}] too` });
      }
      names.set(entry.name, index);
      for (const taken of entryPaths(entry)) {
        const owner = paths.get(taken.toLowerCase());
        if (owner !== undefined && owner !== entry.name) {
          context.addIssue({
            code: 'custom',
            path: ['services', index, entry.path === undefined ? 'name' : 'path'],
            message: `makes ${taken} a path of two services (${owner} answers there)`,
          });
        }
        paths.set(taken.toLowerCase(), entry.name);
      }
    }
  });

/** The services a file lists, its relative handler paths resolved from the file's own folder. */
function servicesOf(filePath: string, entries: readonly ServiceEntry[]): SurveyServiceSettings[] {
  const setting = `SURVEY_SERVICES=${JSON.stringify(filePath)}`;
  return entries.map((entry, index) => {
    const soapPath = servicePath(entry);
    return {
      name: entry.name,
      soapPath,
      plumPath: defaultPlumPath(soapPath),
      restPath: defaultRestPath(soapPath),
      flavours: entry.flavours ?? [...SURVEY_FLAVOURS],
      handler:
        entry.handler === undefined
          ? undefined
          : { file: path.resolve(path.dirname(path.resolve(filePath)), entry.handler), setting: `${setting} services[${index}].handler (${entry.name})` },
      // Each its own cookie: one service's path may be under another's, and a client sends every cookie whose path it is under.
      sessionCookie: `${SESSION_COOKIE}_${entry.name}`,
      sessionScope: `${entry.name}:`,
    };
  });
}

/**
 * Reads SURVEY_SERVICES's file (JSON or YAML by its extension) at start: the services, or every mistake
 * with its line and column. Throws when the file cannot be read.
 */
export function readServicesFile(filePath: string): FileReading<SurveyServiceSettings[]> {
  const reading = readPositionedFile(path.resolve(filePath), servicesFileSchema);
  return reading.ok ? { ok: true, value: servicesOf(filePath, reading.value.services) } : reading;
}
