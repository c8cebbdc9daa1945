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
parentPort.on('message', ({ source, text }) => {
  let pattern = compiled.get(source);
  if (pattern === undefined) {
    if (compiled.size >= 1000) compiled.clear();
    pattern = RE2JS.compile(source);
    compiled.set(source, pattern);
  }
  parentPort.postMessage(pattern.test(text));
});
`;

interface Match {
  readonly source: string;
  readonly text: string;
  readonly resolve: (found: boolean) => void;
  readonly reject: (error: Error) => void;
}

/**
 * One worker thread that takes matches in turn: a second one would only share the same two cores. A text
 * is copied to the worker only when its turn comes, so the matches waiting hold nothing but the calls' own
 * strings. It is started on the first match and holds the process open only while a match is under way.
 */
export class PatternWorker {
  private worker: Worker | undefined;
  private readonly waiting: Match[] = [];
  private running: Match | undefined;

  /** Whether `source` (a pattern RE2JS compiled when the rules were loaded) is found in `text`. */
  test(source: string, text: string): Promise<boolean> {
    const found = new Promise<boolean>((resolve, reject) => this.waiting.push({ source, text, resolve, reject }));
    if (this.running === undefined) this.next();
    return found;
  }

  private next(): void {
    this.running = this.waiting.shift();
    const worker = this.worker ?? this.start();
    if (this.running === undefined) {
      worker.unref();
      return;
    }
    worker.ref();
    worker.postMessage({ source: this.running.source, text: this.running.text });
  }

  private start(): Worker {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { re2js: require.resolve('re2js') } });
    worker.on('message', (found: boolean) => {
      this.running?.resolve(found);
      this.next();
    });
    // A worker that fails (out of memory) fails the match it had; the next match starts another.
    const fail = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.running?.reject(error);
      if (this.waiting.length > 0) this.next();
      else this.running = undefined;
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the pattern worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}

/** The process's pattern worker, shared by every rules file: a thread is a process's resource, like its CPU. */
export const patternWorker = new PatternWorker();
