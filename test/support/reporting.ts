import request from 'supertest';
import type { CallRecordInput } from '../../src/domain/call-record';
import { callRecordSchema } from '../../src/domain/call-record';
import type { Store } from '../../src/storage/store';

export interface Credentials {
  readonly login: string;
  readonly password: string;
}

/** Temporary credentials through POST /api/auth, as a client gets them. */
export async function authenticate(
  url: string,
  { tool = 'dev', login = 'alice', password = 'secret-password' } = {},
): Promise<Credentials> {
  const response = await request(url).post('/api/auth').type('form').send({ tool, login, password });
  if (response.status !== 200) throw new Error(`authentication failed: ${response.status} ${response.text}`);
  return response.body as Credentials;
}

let nextCallId = 0;

export function call(phone: string, startedAt: string, counts: Partial<CallRecordInput> = {}): CallRecordInput {
  nextCallId += 1;
  return { call_id: `call-${nextCallId}`, phone, started_at: startedAt, log_events: 0, loops: 0, form_items: 0, ...counts };
}

export async function addCalls(store: Store, calls: readonly CallRecordInput[]): Promise<void> {
  await store.calls.add(calls.map((wire) => callRecordSchema.parse(wire)));
}

/** The expected series when every period is zero except those given. */
export function series(keys: readonly number[], values: Readonly<Record<number, number>> = {}): Record<string, number> {
  return Object.fromEntries(keys.map((key) => [String(key), values[key] ?? 0]));
}

export function daySeconds(first: number, count: number, step = 86_400): number[] {
  return Array.from({ length: count }, (_, index) => first + index * step);
}
