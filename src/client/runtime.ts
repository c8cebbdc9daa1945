/**
 * The few globals of Node 20 (and of browsers) that the client uses, typed here rather than by lib.dom or
 * @types/node: the client's declarations need nothing but ES2023's lib, whatever a project's `lib` and
 * `types` say, and its package builds with `"types": []` to keep it so (tsconfig.json beside this file).
 */

/** An answer as the client reads it: the part of fetch's `Response` it uses. */
export interface FetchResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
}

/** What the client passes to fetch: a `RequestInit`, with only the fields it sets. */
export interface FetchInit {
  readonly method?: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** How the client sends a request: the global `fetch`, or any function of its shape. */
export type Fetch = (url: string, init: FetchInit) => Promise<FetchResponse>;

interface Globals {
  readonly fetch: Fetch;
  readonly URL: new (url: string) => { readonly href: string };
  readonly URLSearchParams: new (fields: Readonly<Record<string, string>>) => { toString(): string };
  setTimeout(callback: () => void, ms: number): unknown;
  btoa(latin1: string): string;
}

const globals = globalThis as unknown as Globals;

/** The global fetch as it is when the client is made, so that a test or a program may have replaced it first. */
export function globalFetch(): Fetch {
  return globals.fetch;
}

/** The URL's normal form; throws a TypeError when it is not an absolute URL. */
export function absoluteUrl(url: string | { readonly href: string }): string {
  return new globals.URL(typeof url === 'string' ? url : url.href).href;
}

/** `application/x-www-form-urlencoded` text of the fields, as fetch would send a URLSearchParams body. */
export function formBody(fields: Readonly<Record<string, string>>): string {
  return new globals.URLSearchParams(fields).toString();
}

/** Base64 of the text's UTF-8 bytes, as `Buffer.from(text).toString('base64')` gives it. */
export function base64(text: string): string {
  const bytes = encodeURIComponent(text).replace(/%([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return globals.btoa(bytes);
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => globals.setTimeout(resolve, ms));
}
