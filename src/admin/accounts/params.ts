import { z } from 'zod';
import { phoneNumberSchema } from '../../domain/phone-number';
import { timeZoneSchema } from '../../domain/time-zone';
import { errors } from '../../errors/catalogue';
import { boundedText, PATH_STORABLE_TEXT_PATTERN, storableIdentifier } from '../../domain/storable-text';
import { toolSchema } from '../../domain/tool';
import { describeIssues } from '../../http/field-errors';
import type { AccountChanges, AccountKey } from './account-admin';

// At most what POST /api/auth accepts, so that every account created here can log in.
const loginSchema = storableIdentifier(200).meta({
  description: "The account's login, URL-encoded in the path: 1 to 200 characters, none a control character (U+0000-U+001F, U+007F-U+009F)",
  pattern: PATH_STORABLE_TEXT_PATTERN,
});

/** `{tool}/{login}` of the account routes, each part as it is validated below. */
export const accountPathSchema = z.object({ tool: toolSchema, login: loginSchema });

/** `{tool}/{login}/phones/{phone}`. */
export const accountPhonePathSchema = accountPathSchema.extend({ phone: phoneNumberSchema });

/** The body of PUT /admin/accounts/{tool}/{login}. */
export const accountChangesSchema = z
  .strictObject({
    password: boundedText(1, 1024)
      .optional()
      .meta({ description: 'Stored only as a salted scrypt hash; required to create; a new one ends every temporary credential' }),
    active: z.boolean('must be true or false').optional().meta({ description: 'A new account is active' }),
    timezone: timeZoneSchema.optional().meta({ description: 'A new account gets DEFAULT_TIMEZONE' }),
  })
  .meta({ id: 'AccountChanges', description: 'Every field optional: a field left out keeps its value (or its default on creation)' });

function parsed<T>(result: z.ZodSafeParseResult<T>, prefix = ''): T {
  if (result.success) return result.data;
  throw errors.invalidParameter(prefix + describeIssues(result.error.issues));
}

export function parseAccountKey(params: Record<string, string | string[] | undefined>): AccountKey {
  const tool = toolSchema.safeParse(params.tool);
  if (!tool.success) throw errors.invalidTool();
  return { tool: tool.data, login: parsed(loginSchema.safeParse(params.login), 'login: ') };
}

export function parsePhone(value: unknown): string {
  return parsed(phoneNumberSchema.safeParse(value), 'phone: ');
}

/** A PUT body; no body at all changes nothing (JSON `null` is a body, and not an object). */
export function parseAccountChanges(body: unknown): AccountChanges {
  const changes = parsed(accountChangesSchema.safeParse(body === undefined ? {} : body));
  return { password: changes.password, active: changes.active, timeZone: changes.timezone };
}
