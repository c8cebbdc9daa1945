import { performance } from 'node:perf_hooks';
import type { DroppedConnection } from '../../http/connection-faults/connection-faults';
import type { AppError } from '../../errors/catalogue';
import type { Clock } from '../../time/clock';
import { faultOutcome, ownCopy, shownParts, shownText, type ReadCall, type SurveyCallEntry } from './call-entry';

/**
 * A fixed-capacity ring of the last entries, each numbered (`seq`, from 1 up): once full, a new entry
 * takes the place of the oldest. Read newest first. Listeners hear of each entry as it is kept.
 */
export class CallRing<Entry extends { readonly seq: number }> {
  private readonly slots: (Entry | undefined)[];
  private lastSeq = 0;
  private readonly listeners = new Set<(entry: Entry) => void>();

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`a ring holds at least 1 entry, not ${capacity}`);
    this.slots = new Array<Entry | undefined>(capacity);
  }

  /** Keeps the entry made with the next number, and tells the listeners. */
  add(make: (seq: number) => Entry): Entry {
    this.lastSeq += 1;
    const entry = make(this.lastSeq);
    this.slots[(this.lastSeq - 1) % this.capacity] = entry;
    for (const listener of this.listeners) {
      // A listener that fails (a stream gone bad) must not fail the call being recorded, nor the other listeners.
      try {
        listener(entry);
      } catch {
        this.listeners.delete(listener);
      }
    }
    return entry;
  }

  /** The entries kept, newest first; only those numbered after `afterSeq` when given. */
  newestFirst(afterSeq = 0): Entry[] {
    const entries: Entry[] = [];
    const oldest = Math.max(afterSeq + 1, this.lastSeq - this.capacity + 1, 1);
    for (let seq = this.lastSeq; seq >= oldest; seq -= 1) {
      const entry = this.slots[(seq - 1) % this.capacity];
      if (entry !== undefined) entries.push(entry);
    }
    return entries;
  }

  /** Calls `listener` with every entry added from now on, until the returned function is called. */
  subscribe(listener: (entry: Entry) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The call inspector's ring: the last SURVEY_INSPECT_CALLS survey calls of this instance. */
export type CallInspector = CallRing<SurveyCallEntry>;

export function callInspector(capacity: number): CallInspector {
  return new CallRing<SurveyCallEntry>(capacity);
}

/** One call being inspected, from when it was read to its answer or fault: each kept once. */
export interface CallInspection {
  /** The handler starts now: handler_ms counts from here. */
  handlerStarts(): void;
  answered(response: string, sessionId: string): void;
  failed(error: AppError): void;
  /** A scenario dropped the connection: no answer was sent. */
  dropped(fault: DroppedConnection): void;
}

/**
 * Begins inspecting a call that was read: its time now, by the server's clock. The survey router makes
 * none when the inspector is off (no ADMIN_TOKEN, or SURVEY_INSPECT_CALLS=0): no entry is made, kept or sent.
 */
export function inspectCall(
  inspector: CallInspector,
  clock: Clock,
  call: ReadCall,
  /** The session cookie the caller sent, if any. */
  cookieSessionId: string | undefined,
): CallInspection {
  const at = new Date(clock.now()).toISOString();
  let started: number | undefined;
  let done = false;
  const keep = (session: string | null, outcome: SurveyCallEntry['outcome']): void => {
    if (done) return;
    done = true;
    const handlerMs = started === undefined ? null : Math.round((performance.now() - started) * 1000) / 1000;
    inspector.add((seq) => ({
      seq,
      at,
      // Copies, as of every text an entry keeps (ownCopy): none holds on to a string of the request.
      service: ownCopy(call.service),
      path: ownCopy(call.path),
      flavour: call.flavour,
      session: session === null ? null : ownCopy(session),
      parts: shownParts(call),
      outcome,
      handler_ms: handlerMs,
    }));
  };
  return {
    handlerStarts: () => {
      started = performance.now();
    },
    answered: (response, sessionId) => keep(sessionId, { answer: shownText(response) }),
    failed: (error) => keep(cookieSessionId ?? null, faultOutcome(error)),
    dropped: (fault) => keep(cookieSessionId ?? null, { connection: fault }),
  };
}
