import type { DateTime } from 'luxon';

/**
 * One request and the answer the server gives it, in the order a session would send them: the API
 * reference shows each as an example, and src/openapi/examples.test.ts replays the whole session against
 * a live server that starts empty, comparing every answer. So every example in the document is an answer
 * the server really gives. Each feature writes its exchanges beside its operations, from the session
 * src/openapi/examples.ts gives it.
 */
export interface ExampleExchange {
  /** Names the example wherever the document shows it. */
  readonly name: string;
  readonly summary: string;
  readonly operationId: string;
  readonly params?: Readonly<Record<string, string>>;
  readonly body?: { readonly mediaType: string; readonly value: unknown };
  /** Request headers the operation documents as parameters; Accept is the response's media type, credentials the scheme's. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Sent without the credentials the operation's security scheme asks for. */
  readonly withoutCredentials?: true;
  readonly response: {
    readonly status: number;
    readonly mediaType?: string;
    readonly body?: unknown;
    readonly headers?: Readonly<Record<string, string>>;
    /** The server draws these values at random: the example shows their form, not the values a call gets. */
    readonly drawnAtRandom?: true;
  };
}

/**
 * What every feature's examples share: the account (the demo account, so that the examples and the
 * "Try it out" values they give the page at /docs work as they are against `npm start`), the two local
 * days the session reports on, and the application its calls went through.
 */
export interface ExampleSession {
  readonly account: {
    readonly tool: string;
    readonly login: string;
    readonly password: string;
    readonly timeZone: string;
    /** Its number, which the session assigns, calls and releases. */
    readonly phone: string;
  };
  /** In the account's time zone: the second, with the calls, is the day before the server's today there, so complete. */
  readonly days: { readonly first: DateTime; readonly second: DateTime };
  /** The VoiceXML application the example calls' paths went through. */
  readonly application: string;
}
