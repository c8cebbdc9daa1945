/**
 * What one call of a survey handler may take and return, whatever the handler: the survey builder's code is
 * trusted with the event loop (unless isolated), not with the size of what the server sends and keeps.
 */
export interface EvaluationBounds {
  /** SURVEY_HANDLER_TIMEOUT_SECONDS: past it the call gets a fault instead (a rules file's matches are dropped). */
  readonly timeoutSeconds: number;
  /** SOAP_MAX_BYTES: a response in UTF-8, no larger than the largest message the service takes. */
  readonly maxResponseBytes: number;
  /** SURVEY_MAX_STATE_BYTES: the state as JSON in UTF-8, kept in the session until the survey's next call. */
  readonly maxStateBytes: number;
}

/** Whether a text is more than `limit` bytes in UTF-8, without encoding it when its length decides. */
export function overBytes(text: string, limit: number): boolean {
  if (text.length > limit) return true;
  // A UTF-16 code unit is at most 3 bytes in UTF-8 (a pair of surrogates, 4 bytes for 2 units).
  if (text.length * 3 <= limit) return false;
  return Buffer.byteLength(text, 'utf8') > limit;
}

/** What boundedStateJson answers for a state past its bound. */
export const STATE_TOO_LARGE = Symbol('state too large');

class StateTooLarge extends Error {}

/**
 * A state's JSON: undefined for what JSON cannot hold (cycles and BigInts throw, a function gives nothing),
 * 'too large' once it passes `limitBytes`. Its strings' and keys' lengths are counted as JSON.stringify
 * walks it (a string's length is known without building its text), so a state of hundreds of MiB is
 * refused before its JSON is made; what stays within that count is measured exactly.
 */
export function boundedStateJson(state: unknown, limitBytes: number): string | undefined | typeof STATE_TOO_LARGE {
  let atLeast = 0;
  let json: unknown;
  try {
    json = JSON.stringify(state ?? null, function (this: unknown, key: string, value: unknown) {
      // At least a character a value; an array's keys are not written.
      atLeast += 1 + (Array.isArray(this) ? 0 : key.length) + (typeof value === 'string' ? value.length : 0);
      if (atLeast > limitBytes) throw new StateTooLarge();
      return value;
    });
  } catch (error) {
    return error instanceof StateTooLarge ? STATE_TOO_LARGE : undefined;
  }
  if (typeof json !== 'string') return undefined;
  return overBytes(json, limitBytes) ? STATE_TOO_LARGE : json;
}
