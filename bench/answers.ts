/**
 * Answers of a server under measurement, captured once, so that a baseline (bench/plain-express-server.ts)
 * or the generator's ceiling (bench/ceiling-server.ts) can send the same bytes from a process of its own.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface Answer {
  /** The path it answers, query included. */
  readonly path: string;
  readonly status: number;
  /** The headers as sent but those of the connection and the date; Set-Cookie as a list. */
  readonly headers: Record<string, string | string[]>;
  readonly body: string;
}

const NOT_REPLAYED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'set-cookie']);

/** Sends one request as the load will and keeps its answer; rejects unless it is a 2xx. */
export async function captureAnswer(url: string, init: { headers?: Readonly<Record<string, string>>; body?: string } = {}): Promise<Answer> {
  const response = await fetch(url, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: { 'accept-encoding': 'identity', ...init.headers },
    body: init.body,
    signal: AbortSignal.timeout(60_000),
  });
  const body = await response.text();
  if (response.status < 200 || response.status > 299) throw new Error(`${url} answered ${response.status}: ${body.slice(0, 300)}`);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of response.headers) if (!NOT_REPLAYED.has(name)) headers[name] = value;
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) headers['set-cookie'] = cookies;
  const { pathname, search } = new URL(url);
  return { path: pathname + search, status: response.status, headers, body };
}

export const bodyBytes = (answer: Answer) => Buffer.byteLength(answer.body);

let folder: string | undefined;

/** Writes answers to a file a server process reads (its path is the process's argument); removed at exit. */
export function answersFile(answers: readonly Answer[]): string {
  if (folder === undefined) {
    const created = mkdtempSync(path.join(os.tmpdir(), 'ivr-bench-answers-'));
    process.once('exit', () => rmSync(created, { recursive: true, force: true }));
    folder = created;
  }
  const file = path.join(folder, `${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(answers));
  return file;
}

export const readAnswers = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Answer[];
