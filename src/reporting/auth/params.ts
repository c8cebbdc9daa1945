import { z } from 'zod';
import { errors } from '../../errors/catalogue';
import { boundedText, isStorableText, STORABLE_TEXT_PATTERN, STORABLE_TEXT_PROBLEM } from '../../domain/storable-text';
import { toolSchema } from '../../domain/tool';
import type { AuthenticationRequest } from './authenticate';

const passwordSchema = boundedText(1, 1024);
// Logins are looked up in the store, which keeps only storable text (no account can have another).
const loginSchema = passwordSchema.refine(isStorableText, STORABLE_TEXT_PROBLEM).meta({ pattern: STORABLE_TEXT_PATTERN });
const SCHEMAS = { login: loginSchema, password: passwordSchema };

/**
 * The three fields of POST /api/auth, each as it is validated below; the API reference documents them with
 * this, as the body. The query string's, which the reference documents and the server reads too, the API
 * reference leaves out (it says so in words): a password in an address is written to logs on its way.
 */
export const authenticationFieldsSchema = z
  .object({
    tool: toolSchema,
    login: loginSchema.meta({ description: "The account's login" }),
    password: passwordSchema.meta({ description: "The account's password", format: 'password' }),
  })
  .meta({ id: 'AuthenticationRequest', description: "A tool account's login and password" });

const FIELDS = ['tool', 'login', 'password'] as const;
type Field = (typeof FIELDS)[number];

function pick(source: unknown): Partial<Record<Field, unknown>> {
  if (typeof source !== 'object' || source === null) return {};
  const record = source as Record<string, unknown>;
  return Object.fromEntries(FIELDS.filter((name) => record[name] !== undefined).map((name) => [name, record[name]]));
}

/**
 * The reference documents tool, login and password as query parameters but is called with a form
 * body; both are read, and a JSON body too. Where a name appears in both, the body wins.
 */
export function parseAuthenticationRequest(query: unknown, body: unknown): AuthenticationRequest {
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw errors.invalidBody('the JSON body must be an object with tool, login and password');
  }
  const merged = { ...pick(query), ...pick(body) };
  const tool = toolSchema.safeParse(merged.tool);
  if (!tool.success) throw errors.invalidTool();
  return { tool: tool.data, login: secret('login', merged.login), password: secret('password', merged.password) };
}

function secret(field: 'login' | 'password', value: unknown): string {
  const parsed = SCHEMAS[field].safeParse(value);
  if (parsed.success) return parsed.data;
  if (value === undefined || value === '') throw errors.missingField(field);
  throw errors.invalidParameter(`${field} ${parsed.error.issues[0]?.message ?? 'is not valid'}`);
}
