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
