/** The tools an account may belong to, and what an account is. */
import { z } from 'zod';

export const TOOLS = ['dev', 'fuse', 'insight', 'fuseplus'] as const;
export type Tool = (typeof TOOLS)[number];

/** The tools as a sentence names them: dev, fuse, insight or fuseplus. */
export const TOOLS_IN_WORDS = `${TOOLS.slice(0, -1).join(', ')} or ${TOOLS[TOOLS.length - 1]}`;

/** A tool, wherever one is read: a login, an admin path, a seed file. */
export const toolSchema = z.enum(TOOLS).meta({ description: 'The tool the account belongs to' });

export interface Account {
  /** `tool:login`: accounts are per tool, so the same login may exist under two tools. */
  readonly id: string;
  readonly tool: Tool;
  readonly login: string;
  /** A salted slow hash; see accounts/password-hash.ts. */
  readonly passwordHash: string;
  readonly active: boolean;
  /** IANA time zone in which the account's dates and periods are read. */
  readonly timeZone: string;
  /**
   * Temporary credentials work only while this is the generation they were issued under: a password
   * change or a revocation moves it on, and every credential issued before stops at once.
   */
  readonly credentialGeneration: number;
}

export function accountId(tool: Tool, login: string): string {
  return `${tool}:${login}`;
}
