import { Worker } from 'node:worker_threads';

/*
 * RE2JS matches in time linear in the text, but its worst patterns still take about 0.2 µs per character
 * on this kind of machine (`^(a+)+$` against 10 Mi characters: 160-1,800 ms). A survey call may carry
 * 10 MiB of text (SOAP_MAX_BYTES), so a rules file's matches on one call would hold the event loop, and
 * every request waiting behind it, for seconds. What a call matches beyond a budget runs on a worker thread.
 */

/** How many characters one call's matches may scan on the event loop: about 15-30 ms at RE2JS's worst. */
export const INLINE_MATCH_CHARACTERS = 131_072;

// Plain JavaScript evaluated by the worker, so that it runs the same from src/ under jest as from dist/.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { RE2JS } = require(workerData.re2js);
const compiled = new Map();
parentPort.on('message', ({ id, source, text }) => {
  let pattern = compiled.get(source);
  if (pattern === undefined) {
    if (compiled.size >= ${1000}) compiled.clear();
    pattern = RE2JS.compile(source);
    compiled.set(source, pattern);
  }
  parentPort.postMessage({ id, found: pattern.test(text) });
});
`;

interface Pending {
  readonly resolve: (found: boolean) => void;
  readonly reject: (error: Error) => void;
}

/**
 * One worker thread that takes matches in turn: a second one would only share the same two cores, and the
 * texts queued wait as the calls' own strings, copied to the worker one at a time. It is started on the
 * first match sent and holds the process open only while a match is pending.
 */
export class PatternWorker {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;

  /** Whether `source` (a pattern RE2JS compiled when the rules were loaded) is found in `text`. */
  test(source: string, text: string): Promise<boolean> {
    const worker = this.worker ?? this.start();
    const id = this.nextId++;
    const found = new Promise<boolean>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    worker.ref();
    worker.postMessage({ id, source, text });
    return found;
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { re2js: require.resolve('re2js') } });
    worker.on('message', ({ id, found }: { id: number; found: boolean }) => {
      this.pending.get(id)?.resolve(found);
      this.pending.delete(id);
      if (this.pending.size === 0) worker.unref();
    });
    // A worker that fails (out of memory) fails the matches it had; the next match starts another.
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the pattern worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

/** The process's pattern worker, shared by every rules file: a thread is a process's resource, like its CPU. */
export const patternWorker = new PatternWorker();
