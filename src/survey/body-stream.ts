import type { Request } from 'express';
import type { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import zlib from 'node:zlib';
import { AppError, errors } from '../errors/catalogue';
import { isDecompressionError } from '../http/error-handler';

type Decompressor = zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress;

const DECOMPRESSORS: ReadonlyMap<string, (() => Decompressor) | null> = new Map([
  ['identity', null],
  ['gzip', () => zlib.createGunzip()],
  ['x-gzip', () => zlib.createGunzip()],
  ['deflate', () => zlib.createInflate()],
  ['br', () => zlib.createBrotliDecompress()],
]);

/** Null for identity. */
function decompressorFor(contentEncoding: string | undefined): Decompressor | null {
  const create = DECOMPRESSORS.get((contentEncoding ?? '').trim().toLowerCase() || 'identity');
  if (create === undefined) {
    throw errors.unsupportedSurveyEncoding();
  }
  return create === null ? null : create();
}

function discardRest(req: Request): void {
  if (req.readableEnded) return;
  req.unpipe();
  req.resume();
}

/**
 * What reads the body: called with each piece of bytes in order; a promise it returns holds the next piece
 * back. `wholeBody` says the piece is all of the body: sent uncompressed, as long as its Content-Length;
 * `lastOf` is the length of the whole body when this piece is its last (uncompressed, with a
 * Content-Length), else undefined.
 */
export type BodyConsumer = (bytes: Buffer, wholeBody: boolean, lastOf: number | undefined) => void | Promise<void>;

/**
 * The bytes of survey bodies the process holds at once (SURVEY_MAX_BYTES_HELD), each call's counted from
 * its first byte read until it is answered: what calls hold as texts, parts and matches grows with them, so
 * many large calls at once are refused instead of growing the process without end.
 */
export class HeldBodyBytes {
  private held = 0;

  constructor(readonly maxBytes: number) {}

  /** Counts `bytes` more, unless that would pass the bound. */
  take(bytes: number): boolean {
    if (this.held + bytes > this.maxBytes) return false;
    this.held += bytes;
    return true;
  }

  giveBack(bytes: number): void {
    this.held -= bytes;
  }
}

/** What one call's body may be, and what all calls' bodies held at once may be. */
export interface BodyBounds {
  /** SOAP_MAX_BYTES, after decompression. */
  readonly maxBytes: number;
  readonly held: HeldBodyBytes;
}

/**
 * Feeds the request body to `consume` as it arrives, decompressed by Content-Encoding, and fails with 413
 * as soon as more than `limitBytes` came out (so a small gzip bomb costs one chunk, not its expansion).
 * Resolves at the end of the body; rejects with what `consume` threw, or with the fault for a body that
 * cannot be read. Whenever reading stops early, the rest of the body is read and thrown away, so that the
 * answer reaches a client still sending instead of a reset connection. Its bytes count against `held` until
 * the response is done; a piece that would take them past it fails the read with IVR_SURVEY_CALLS_BUSY.
 */
export function readBody(req: Request, { maxBytes: limitBytes, held }: BodyBounds, consume: BodyConsumer): Promise<void> {
  const decompressor = decompressorFor(req.get('content-encoding'));
  // The length the bytes read will have: NaN, equal to no length, when compressed or not declared.
  const declaredLength = decompressor === null ? Number(req.get('content-length')) : Number.NaN;
  if (declaredLength > limitBytes) {
    discardRest(req);
    return Promise.reject(errors.payloadTooLarge(limitBytes));
  }
  const source: Readable = decompressor === null ? req : req.pipe(decompressor);
  let taken = 0;
  // The response's close comes whether it was sent or the client left.
  (req.res ?? req).once('close', () => held.giveBack(taken));
  // A body whose length is declared is counted whole before any of it is read: one that does not fit is
  // refused without a byte of it parsed, which a flood of large calls would otherwise cost each time.
  if (declaredLength > 0) {
    if (!held.take(declaredLength)) {
      discardRest(req);
      return Promise.reject(errors.surveyCallsBusy(held.maxBytes));
    }
    taken = declaredLength;
  }
  return new Promise<void>((resolve, reject) => {
    let received = 0;
    let settled = false;
    /** The consumer's work on the last piece, when it took a promise: the body ends only after it. */
    let consuming: Promise<void> | undefined;
    const finish = (error?: unknown): void => {
      if (settled) return;
      settled = true;
      source.off('data', onData);
      if (error === undefined) {
        resolve();
        return;
      }
      discardRest(req);
      decompressor?.destroy();
      const failure = error instanceof AppError || !isDecompressionError(error) ? error : unreadable();
      reject(failure instanceof Error ? failure : unreadable());
    };
    const onData = (chunk: Buffer): void => {
      received += chunk.length;
      if (received > limitBytes) {
        finish(errors.payloadTooLarge(limitBytes));
        return;
      }
      if (received > taken) {
        if (!held.take(received - taken)) {
          finish(errors.surveyCallsBusy(held.maxBytes));
          return;
        }
        taken = received;
      }
      try {
        const consumed = consume(chunk, chunk.length === declaredLength, received === declaredLength ? received : undefined);
        if (consumed === undefined) return;
        source.pause();
        consuming = consumed.then(() => {
          consuming = undefined;
          if (!settled) source.resume();
        }, finish);
      } catch (error) {
        finish(error);
      }
    };
    source.on('data', onData);
    // A paused stream still ends once its last piece is out, which may be while that piece is consumed.
    source.once('end', () => (consuming === undefined ? finish() : void consuming.then(() => finish())));
    // on, not once: a stream may report more than one error, and an error no one listens to ends the process.
    source.on('error', finish);
    if (decompressor !== null) {
      // A client gone mid-body ends the read (req reports it itself when read directly).
      req.on('error', finish);
      req.once('close', () => req.complete || finish(new Error('the client closed the connection mid-body')));
    }
  });
}

const unreadable = () =>
  errors.unreadableBody('the request body could not be read; it may be truncated or not match its Content-Encoding');

const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)/i;

/** The charset the body's Content-Type names, if it names one. */
export function declaredCharset(req: Request): string | undefined {
  return CHARSET.exec(req.get('content-type') ?? '')?.[1];
}

/**
 * Turns the body's bytes into text in the charset its Content-Type names (UTF-8 when none), piece by
 * piece: call it with each piece of bytes, then once without, for what a last multi-byte character left.
 */
export function bodyTextDecoder(req: Request): (bytes?: Buffer) => string {
  const charset = declaredCharset(req) ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    throw errors.unsupportedSurveyCharset(charset);
  }
  return (bytes) => {
    try {
      return bytes === undefined ? decoder.decode() : decoder.decode(bytes, { stream: true });
    } catch {
      throw errors.unreadableBody(`the request body is not valid ${charset}`);
    }
  };
}
