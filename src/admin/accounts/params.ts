import { z } from 'zod';
import { phoneNumberSchema } from '../../domain/phone-number';
import { timeZoneSchema } from '../../domain/time-zone';
import { errors } from '../../errors/catalogue';
import { storableIdentifier } from '../../domain/storable-text';
import { TOOLS } from '../../domain/account';
import { describeIssues } from '../field-errors';
import type { AccountChanges, AccountKey } from './account-admin';

const toolSchema = z.enum(TOOLS);

// At most what POST /api/auth accepts, so that every account created here can log in.
const loginSchema = storableIdentifier(200);

const changesSchema = z.strictObject({
  password: z.string().min(1, 'must not be empty').max(1024, 'must be at most 1024 characters').optional(),
  active: z.boolean('must be true or false').optional(),
  timezone: timeZoneSchema.optional(),
});

function parsed<T>(result: z.ZodSafeParseResult<T>, prefix = ''): T {
  if (result.success) return result.data;
  throw errors.badRequest(prefix + describeIssues(result.error.issues));
}

export function parseAccountKey(params: Record<string, string | string[] | undefined>): AccountKey {
  const tool = toolSchema.safeParse(params.tool);
  if (!tool.success) throw errors.invalidTool();
  return { tool: tool.data, login: parsed(loginSchema.safeParse(params.login), 'login: ') };
}

export function parsePhone(value: unknown): string {
  return parsed(phoneNumberSchema.safeParse(value), 'phone: ');
}

/** A PUT body; an empty body changes nothing. */
export function parseAccountChanges(body: unknown): AccountChanges {
  const changes = parsed(changesSchema.safeParse(body ?? {}));
  return { password: changes.password, active: changes.active, timeZone: changes.timezone };
}
