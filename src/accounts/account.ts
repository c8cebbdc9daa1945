/** What an account is. */
import type { Tool } from '../domain/tool';

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
