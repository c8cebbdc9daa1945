import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { errors } from '../../errors/catalogue';
import { LOWEST_PRIORITY_SOURCE } from '../worker-priority';

/*
 * RE2JS matches in time linear in the text, but its worst patterns are still slow per character. A survey
 * call may carry 10 MiB of text (SOAP_MAX_BYTES), so a rules file's matches on one call would hold the
 * event loop, and every request waiting behind it, for seconds. What a call matches beyond a budget runs on
 * a worker thread (docs/performance-costs.md, "A long answer on the pattern worker").
 */

/** How many characters one call's matches may scan on the event loop: a short hold even at RE2JS's worst. */
export const INLINE_MATCH_CHARACTERS = 131_072;

/**
 * What the matches waiting for the worker may hold: the worker takes one at a time, so a queue longer than
 * a few handler timeouts' work is only calls that will time out waiting (docs/security.md, "Limits and timeouts").
 */
export interface PatternQueueBounds {
  /** Matches waiting behind the one under way. */
  readonly maxWaiting: number;
  /** Characters of text that the waiting matches hold, together. */
  readonly maxWaitingCharacters: number;
}

export const PATTERN_QUEUE_BOUNDS: PatternQueueBounds = { maxWaiting: 32, maxWaitingCharacters: 64 * 1024 * 1024 };

/**
 * Characters of a text copied to the worker in one turn of the event loop: a copy holds the loop, and a
 * 10 Mi-character one held it for tens of milliseconds (docs/performance-costs.md, "A long answer on the
 * pattern worker").
 */
const PIECE_CHARACTERS = 1024 * 1024;

// Plain JavaScript evaluated by the worker, so that it runs the same from src/ under jest as from dist/.
const WORKER_SOURCE = `${LOWEST_PRIORITY_SOURCE}
toLowestPriority();
const { parentPort, workerData } = require('node:worker_threads');
const { RE2JS } = require(workerData.re2js);
const compiled = new Map();
const patternOf = (source) => {
  let pattern = compiled.get(source);
  if (pattern === undefined) {
    if (compiled.size >= 1000) compiled.clear();
    pattern = RE2JS.compile(source);
    compiled.set(source, pattern);
  }
  return pattern;
};
let pieces = [];
parentPort.on('message', ({ pieces: arriving, sources }) => {
  if (arriving !== undefined) {
    for (const piece of arriving) pieces.push(piece);
    return;
  }
  const text = pieces.join('');
  pieces = [];
  parentPort.postMessage(sources.map((source) => patternOf(source).test(text)));
});
`;

interface Match {
  readonly sources: readonly string[];
  /** The text, in the pieces it came in (text-pieces.ts); one piece when it came whole. */
  readonly pieces: readonly string[];
  readonly length: number;
  /** When the call that asked for it is answered by its timeout: a match not done by then is dropped. */
  readonly deadline: number;
  readonly resolve: (found: readonly boolean[]) => void;
  readonly reject: (error: Error) => void;
}

class MatchTimeout extends Error {
  override readonly name = 'MatchTimeout';
}

/**
 * One worker thread that takes matches in turn: a second one would only share the same two cores. A text
 * is copied to the worker only when its turn comes, so the matches waiting hold nothing but the calls' own
 * strings. Each match has its call's deadline: one still waiting then is dropped unmatched, and the worker
 * still matching one then is stopped (the next match starts another), so the matches of calls already
 * answered with the timeout's fault cost nothing more. The queue is bounded; past it a match is refused at once.
 * The worker is started on the first match and holds the process open only while a match is under way.
 */
export class PatternWorker {
  private worker: Worker | undefined;
  private readonly waiting: Match[] = [];
  private waitingCharacters = 0;
  private running: Match | undefined;
  private runningTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly bounds: PatternQueueBounds = PATTERN_QUEUE_BOUNDS,
    /** Milliseconds, as deadlines are given: performance.now, as the handler timeout's own timer runs. */
    readonly now: () => number = () => performance.now(),
  ) {}

  /**
   * Whether each of `sources` (patterns RE2JS compiled when the rules were loaded) is found in the text
   * `pieces` make, if known by `deadline` (see `now`).
   */
  test(sources: readonly string[], pieces: readonly string[], deadline: number): Promise<readonly boolean[]> {
    this.dropExpired();
    const length = pieces.reduce((sum, piece) => sum + piece.length, 0);
    const waits = this.running !== undefined;
    if (waits && (this.waiting.length >= this.bounds.maxWaiting || this.waitingCharacters + length > this.bounds.maxWaitingCharacters)) {
      return Promise.reject(errors.surveyPatternsBusy(this.bounds.maxWaiting, this.bounds.maxWaitingCharacters));
    }
    const found = new Promise<readonly boolean[]>((resolve, reject) => this.waiting.push({ sources, pieces, length, deadline, resolve, reject }));
    this.waitingCharacters += length;
    if (!waits) this.next();
    return found;
  }

  private dropExpired(): void {
    const now = this.now();
    for (let index = this.waiting.length - 1; index >= 0; index--) {
      const match = this.waiting[index] as Match;
      if (match.deadline > now) continue;
      this.waiting.splice(index, 1);
      this.waitingCharacters -= match.length;
      match.reject(new MatchTimeout('the call\'s time was up before its match began'));
    }
  }

  private next(): void {
    this.dropExpired();
    const match = this.waiting.shift();
    this.running = match;
    if (match === undefined) {
      this.worker?.unref();
      return;
    }
    const worker = this.worker ?? this.start();
    this.waitingCharacters -= match.length;
    worker.ref();
    // Its own turn: laying out a long text whole is the costliest step, and it must not add to the turn
    // that answered the previous match (docs/performance-costs.md, "A long answer on the pattern worker").
    setImmediate(() => this.send(worker, match, 0, 0));
    this.runningTimer = setTimeout(() => this.stopRunning(worker, match), Math.max(0, match.deadline - this.now()));
  }

  /**
   * The text from its piece `index` (that piece from `offset`) on, about PIECE_CHARACTERS a turn, then the
   * patterns; unless the worker or its match ended meanwhile. Pieces are sent as they are; only one longer
   * than a turn's share is cut, which lays it out whole if it was not (a text that came whole, as a rope).
   */
  private send(worker: Worker, match: Match, index: number, offset: number): void {
    if (this.worker !== worker || this.running !== match) return;
    if (index >= match.pieces.length) {
      worker.postMessage({ sources: match.sources });
      return;
    }
    const batch: string[] = [];
    let characters = 0;
    while (index < match.pieces.length && characters < PIECE_CHARACTERS) {
      const piece = match.pieces[index] as string;
      const end = Math.min(piece.length, offset + PIECE_CHARACTERS - characters);
      batch.push(offset === 0 && end === piece.length ? piece : piece.slice(offset, end));
      characters += end - offset;
      if (end < piece.length) {
        offset = end;
      } else {
        index += 1;
        offset = 0;
      }
    }
    worker.postMessage({ pieces: batch });
    setImmediate(() => this.send(worker, match, index, offset));
  }

  /** The match under way outlived its call: the only way to stop a match is to stop its thread. */
  private stopRunning(worker: Worker, match: Match): void {
    if (this.worker !== worker || this.running !== match) return;
    this.worker = undefined;
    void worker.terminate();
    match.reject(new MatchTimeout('the call\'s time was up during its match; the pattern worker was stopped'));
    this.next();
  }

  private finishRunning(): Match | undefined {
    clearTimeout(this.runningTimer);
    const finished = this.running;
    this.running = undefined;
    return finished;
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { re2js: require.resolve('re2js') } });
    worker.on('message', (found: readonly boolean[]) => {
      // A worker stopped at a deadline may have answered meanwhile: its answer is for a match already dropped.
      if (this.worker !== worker) return;
      this.finishRunning()?.resolve(found);
      this.next();
    });
    // A worker that fails (out of memory) fails the match it had; the next match starts another.
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.finishRunning()?.reject(error);
      if (this.waiting.length > 0) this.next();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the pattern worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

/** The process's pattern worker, shared by every rules file: a thread is a process's resource, like its CPU. */
export const patternWorker = new PatternWorker();
