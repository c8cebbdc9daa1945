import type { Fetch, FetchResponse } from 'ivr-reporting/client';
import { CliError } from '../cli-error';
import { count } from '../counts';

/** The most the mirror reads of one answer, unless told otherwise: far above a flow of 10,000 form items of 500-character texts. */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

const MIB = 1024 * 1024;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export interface BoundedFetchOptions {
  readonly maxBytes: number;
  /** The longest a request may take, its body read whole. */
  readonly timeoutMs: number;
}

function sizeText(bytes: number): string {
  return bytes % MIB === 0 ? `${count(bytes / MIB)} MiB` : `${count(bytes)} bytes`;
}

function tooLong(url: string, maxBytes: number): CliError {
  return new CliError(`the source's answer to ${url} is longer than ${sizeText(maxBytes)}, the most the mirror reads of one answer: is it a reporting API?`);
}

function redirectRefusal(url: string, status: number, location: string): CliError {
  let target: URL | undefined;
  try {
    target = new URL(location, url);
  } catch {
    target = undefined;
  }
  const where = target === undefined ? shownLocation(location) : target.href;
  const origin = target !== undefined && target.origin !== new URL(url).origin ? `another origin, ${target.origin}` : 'the same origin';
  return new CliError(`the source answered ${url} with a redirect (${status}) to ${where}, on ${origin}: the mirror follows no redirect; give --from the URL the server answers at`);
}

function shownLocation(location: string): string {
  return JSON.stringify(location.length > 200 ? `${location.slice(0, 197)}...` : location);
}

/**
 * fetch for reading a source: no redirect followed, even within the source's origin (credentials and the
 * run's trust would go wherever it pointed), and no answer read past `maxBytes`, whether its
 * Content-Length says so or its body runs on: the body is counted as it arrives and the request is
 * aborted at the limit, so an endless answer costs no more memory than the limit.
 */
export function boundedFetch({ maxBytes, timeoutMs }: BoundedFetchOptions): (url: string, init: Parameters<Fetch>[1]) => Promise<FetchResponse> {
  return async (url, init) => {
    const abort = new AbortController();
    const response = await fetch(url, { ...init, redirect: 'manual', signal: AbortSignal.any([abort.signal, AbortSignal.timeout(timeoutMs)]) });
    try {
      const location = response.headers.get('location');
      if (REDIRECT_STATUSES.has(response.status) && location !== null) throw redirectRefusal(url, response.status, location);
      if (Number(response.headers.get('content-length') ?? 0) > maxBytes) throw tooLong(url, maxBytes);
      const chunks: Uint8Array[] = [];
      let size = 0;
      // Node's fetch types its body a stream of anything; its chunks are bytes.
      const reader = (response.body as ReadableStream<Uint8Array> | null)?.getReader();
      for (let read = await reader?.read(); read !== undefined && !read.done; read = await reader?.read()) {
        size += read.value.byteLength;
        if (size > maxBytes) throw tooLong(url, maxBytes);
        chunks.push(read.value);
      }
      const text = new TextDecoder().decode(Buffer.concat(chunks));
      return { ok: response.ok, status: response.status, statusText: response.statusText, headers: response.headers, text: () => Promise.resolve(text) };
    } catch (error) {
      abort.abort();
      throw error;
    }
  };
}
