import { z } from 'zod';
import { errors } from '../../errors/catalogue';
import { isStorableText, STORABLE_TEXT_PROBLEM } from '../../domain/storable-text';
import { TOOLS } from '../../domain/account';
import type { AuthenticationRequest } from './authenticate';

const toolSchema = z.enum(TOOLS).meta({ description: 'The tool the account belongs to' });
const passwordSchema = z.string({ error: 'must be text' }).min(1).max(1024, 'must be at most 1024 characters');
// Logins are looked up in the store, which keeps only storable text (no account can have another).
const loginSchema = passwordSchema.refine(isStorableText, STORABLE_TEXT_PROBLEM);
const SCHEMAS = { login: loginSchema, password: passwordSchema };

/** The three fields of POST /api/auth, each as it is validated below; the API reference documents them with this. */
export const authenticationFieldsSchema = z
  .object({
    tool: toolSchema,
    login: loginSchema.meta({ description: "The account's login" }),
    password: passwordSchema.meta({ description: "The account's password" }),
  })
  .meta({ id: 'AuthenticationRequest' });

const FIELDS = ['tool', 'login', 'password'] as const;
type Field = (typeof FIELDS)[number];

function pick(source: unknown): Partial<Record<Field, unknown>> {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return {};
  const record = source as Record<string, unknown>;
  return Object.fromEntries(FIELDS.filter((name) => record[name] !== undefined).map((name) => [name, record[name]]));
}

/**
 * The reference documents tool, login and password as query parameters but is called with a form
 * body; both are read, and a JSON body too. Where a name appears in both, the body wins.
 */
export function parseAuthenticationRequest(query: unknown, body: unknown): AuthenticationRequest {
  const merged = { ...pick(query), ...pick(body) };
  const tool = toolSchema.safeParse(merged.tool);
  if (!tool.success) throw errors.invalidTool();
  return { tool: tool.data, login: secret('login', merged.login), password: secret('password', merged.password) };
}

function secret(field: 'login' | 'password', value: unknown): string {
  const parsed = SCHEMAS[field].safeParse(value);
  if (parsed.success) return parsed.data;
  if (value === undefined || value === '') throw errors.missingField(field);
  throw errors.badRequest(`${field} ${parsed.error.issues[0]?.message ?? 'is not valid'}`);
}
