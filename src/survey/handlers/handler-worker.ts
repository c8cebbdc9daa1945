import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { SurveyCall, SurveyEvaluation, SurveyHandler } from '../../domain/survey-handler';
import { errors, type AppError } from '../../errors/catalogue';
import type { EvaluationBounds } from '../evaluation-bounds';
import { LOWEST_PRIORITY_SOURCE } from '../worker-priority';

/*
 * SURVEY_HANDLER_ISOLATION=worker: a handler module loaded and run on a worker thread of its own, so that a
 * handler that never yields (`while (true) {}`) holds that thread, not the event loop: the call gets the
 * timeout's fault, the worker is stopped and another started. A call costs a message each way, its parts
 * copied (measured in docs/survey-web-service.md, "Where a module runs").
 */

// Plain JavaScript evaluated by the worker, so that it runs the same from src/ under jest as from dist/.
// It picks the handler out of the module as handler-module.ts does in the process.
const WORKER_SOURCE = `${LOWEST_PRIORITY_SOURCE}
const { parentPort, workerData } = require('node:worker_threads');
const { file, loaded, port, bounds } = workerData;
// As survey/evaluation-bounds.ts's overBytes and boundedStateJson.
const overBytes = (text, limit) => text.length > limit || (text.length * 3 > limit && Buffer.byteLength(text, 'utf8') > limit);
const TOO_LARGE = Symbol('too large');
function boundedStateJson(state, limit) {
  let atLeast = 0;
  let json;
  try {
    json = JSON.stringify(state === undefined ? null : state, function (key, value) {
      atLeast += 1 + (Array.isArray(this) ? 0 : key.length) + (typeof value === 'string' ? value.length : 0);
      if (atLeast > limit) throw TOO_LARGE;
      return value;
    });
  } catch (error) {
    if (error === TOO_LARGE) return 'too large';
    throw error;
  }
  if (typeof json !== 'string') throw new Error('the survey handler returned a state that JSON cannot hold');
  return overBytes(json, limit) ? 'too large' : json;
}
function handlerExport(module) {
  if (typeof module === 'function') return module;
  if (typeof module !== 'object' || module === null) return undefined;
  if (typeof module.default === 'function') return module.default;
  if (typeof module.evaluate === 'function') return module.evaluate;
  return undefined;
}
const failure = (error) => ({ message: String(error !== null && typeof error === 'object' && 'message' in error ? error.message : error), stack: error !== null && typeof error === 'object' ? error.stack : undefined });
let handler;
try {
  const module = require(file);
  handler = handlerExport(module);
  // Loaded at the process's priority, within its timeout; the calls run at the lowest.
  toLowestPriority();
  port.postMessage({ kind: handler === undefined ? 'no function' : 'loaded' });
} catch (error) {
  port.postMessage({ kind: 'failed', error: failure(error) });
}
port.close();
Atomics.store(loaded, 0, 1);
Atomics.notify(loaded, 0);
if (handler !== undefined) {
  parentPort.on('message', ({ id, call }) => {
    const fail = (error) => parentPort.postMessage({ id, error: failure(error) });
    // A Buffer arrives as a Uint8Array: the handler's interface promises Buffers.
    if (call.files !== undefined) call.files = call.files.map((file) => ({ ...file, data: Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength) }));
    new Promise((resolve) => resolve(handler(call))).then((evaluation) => {
      // Bounded here, so that what is too large is never copied to the server's thread; the state goes as
      // the JSON the server would keep of it, so a Map or a class instance copies no more than that either.
      const response = evaluation !== null && typeof evaluation === 'object' ? evaluation.response : undefined;
      if (typeof response !== 'string') return parentPort.postMessage({ id, evaluation: null });
      if (overBytes(response, bounds.maxResponseBytes)) return parentPort.postMessage({ id, refused: 'response' });
      const stateJson = boundedStateJson(evaluation.state, bounds.maxStateBytes);
      if (stateJson === 'too large') return parentPort.postMessage({ id, refused: 'state' });
      parentPort.postMessage({ id, evaluation: { response, state: JSON.parse(stateJson) } });
    }).catch(fail);
  });
}
`;

/** What the worker said of the module once it had loaded it; `late` when it said nothing within the timeout. */
export type WorkerLoad =
  | { readonly kind: 'loaded'; readonly handler: SurveyHandler; readonly retire: () => void }
  | { readonly kind: 'no function' }
  | { readonly kind: 'failed'; readonly error: { readonly message: string; readonly stack?: string } }
  | { readonly kind: 'late' };

/** A load that gave no handler. */
export type LoadRefused = Exclude<WorkerLoad, { kind: 'loaded' }>;

type LoadMessage = { readonly kind: 'loaded' } | Exclude<LoadRefused, { kind: 'late' }>;

export interface IsolatedModule {
  /** The absolute path of the module. */
  readonly file: string;
  /** Its timeout (how long a load or a call may take before its worker is stopped) and what a call may return. */
  readonly bounds: EvaluationBounds;
  /** Where a stopped worker is logged. */
  readonly logger: Logger;
}

interface Pending {
  readonly resolve: (evaluation: SurveyEvaluation) => void;
  readonly reject: (error: Error) => void;
}

interface Reply {
  readonly id: number;
  /** Null when the handler returned no response string. */
  readonly evaluation?: SurveyEvaluation | null;
  readonly error?: { readonly message: string; readonly stack?: string };
  /** What the worker did not send because it was over its bound. */
  readonly refused?: 'response' | 'state';
}

class HandlerTimeout extends Error {
  override readonly name = 'HandlerTimeout';
}

/** An error the handler threw on the worker, with its stack, as the process logs it. */
function handlerError({ message, stack }: { readonly message: string; readonly stack?: string }): Error {
  const error = new Error(message);
  if (stack !== undefined) error.stack = stack;
  return error;
}

/** A worker thread that has loaded the module: it takes calls until it is stopped. */
class HandlerWorker {
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private retired = false;
  stopped = false;

  constructor(
    private readonly worker: Worker,
    private readonly module: IsolatedModule,
  ) {
    // Held open only while a call is pending, as the pattern worker is: an idle handler keeps no process alive.
    worker.unref();
    worker.on('message', ({ id, evaluation, error, refused }: Reply) => {
      const pending = this.pending.get(id);
      this.pending.delete(id);
      if (this.pending.size === 0) this.idle();
      if (error !== undefined) pending?.reject(handlerError(error));
      else if (refused !== undefined) pending?.reject(this.refusal(refused));
      else pending?.resolve(evaluation as SurveyEvaluation);
    });
    // A handler that throws outside a call (in a timer of its own) ends the thread: its calls fail.
    worker.on('error', (error) => this.stop(error));
    worker.on('exit', (code) => this.stop(new Error(`the worker exited with code ${code}`)));
  }

  private refusal(refused: 'response' | 'state'): AppError {
    const { maxResponseBytes, maxStateBytes } = this.module.bounds;
    return refused === 'response' ? errors.surveyResponseTooLarge(maxResponseBytes) : errors.surveyStateTooLarge(maxStateBytes);
  }

  run(call: SurveyCall): Promise<SurveyEvaluation> {
    const id = this.nextId++;
    const evaluation = new Promise<SurveyEvaluation>((resolve, reject) => this.pending.set(id, { resolve, reject }));
    this.worker.ref();
    this.worker.postMessage({ id, call });
    return evaluation;
  }

  /** Ends the thread once the calls it holds are answered: a version replaced by a reload. */
  retire(): void {
    this.retired = true;
    if (this.pending.size === 0) this.idle();
  }

  private idle(): void {
    this.worker.unref();
    if (!this.retired || this.stopped) return;
    this.stopped = true;
    void this.worker.terminate();
  }

  /** Fails every call it holds and ends the thread, whatever it runs. */
  stop(reason: Error): void {
    if (this.stopped) return;
    this.stopped = true;
    for (const { reject } of this.pending.values()) reject(reason);
    this.pending.clear();
    void this.worker.terminate();
    this.module.logger.warn({ file: this.module.file, reason: reason.message }, 'survey handler worker stopped; the next call starts another');
  }
}

interface Spawned {
  readonly worker: Worker;
  readonly port: MessagePort;
  readonly loaded: Int32Array;
}

function spawn({ file, bounds }: IsolatedModule): Spawned {
  const loaded = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, loaded, port: port2, bounds }, transferList: [port2] });
  return { worker, port: port1, loaded };
}

/** The worker kept when it loaded the module; ended otherwise, a module that never finished loading too. */
function settle(module: IsolatedModule, { worker, port }: Spawned, message: LoadMessage | undefined): LoadRefused | HandlerWorker {
  port.close();
  if (message?.kind === 'loaded') return new HandlerWorker(worker, module);
  void worker.terminate();
  return message ?? { kind: 'late' };
}

function timeoutReason(module: IsolatedModule): string {
  return `not loaded within SURVEY_HANDLER_TIMEOUT_SECONDS (${module.bounds.timeoutSeconds} s)`;
}

/** A worker started for a call, after the one before was stopped: the module as it is now on disk. */
async function startWorker(module: IsolatedModule): Promise<HandlerWorker | LoadRefused> {
  const spawned = spawn(module);
  let timer: NodeJS.Timeout | undefined;
  const message = await Promise.race([
    new Promise<LoadMessage>((resolve) => spawned.port.once('message', resolve)),
    new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, module.bounds.timeoutSeconds * 1000, undefined);
    }),
  ]);
  clearTimeout(timer);
  return settle(module, spawned, message);
}

/**
 * The handler of a module run on worker threads, one at a time, and how to end it once a reload replaced it
 * (its calls still running are answered first). Each call has the handler timeout: past it the worker is
 * stopped with every call it held, and the call is answered as any handler too slow (this timer or
 * survey/sessions/answer-call.ts's, whichever fires first, gives the same fault). The next call starts a worker again.
 */
function isolatedHandler(module: IsolatedModule, first: HandlerWorker): { handler: SurveyHandler; retire: () => void } {
  let current = first;
  let retired = false;
  let starting: Promise<HandlerWorker> | undefined;

  const restart = async (): Promise<HandlerWorker> => {
    const started = await startWorker(module);
    if (started instanceof HandlerWorker) return started;
    throw new Error(`cannot load ${module.file} again on a worker: ${loadProblem(module, started)}`);
  };

  const handler: SurveyHandler = async (call) => {
    if (current.stopped) {
      starting ??= restart().finally(() => {
        starting = undefined;
      });
      current = await starting;
    }
    const worker = current;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        const reason = new HandlerTimeout(`the survey handler took longer than ${module.bounds.timeoutSeconds} s; its worker was stopped`);
        reject(reason);
        worker.stop(reason);
      }, module.bounds.timeoutSeconds * 1000);
    });
    try {
      return await Promise.race([worker.run(call), timeout]);
    } finally {
      clearTimeout(timer);
      // A worker started again after its version was replaced ends too, once its calls are answered.
      if (retired) worker.retire();
    }
  };
  const retire = () => {
    retired = true;
    current.retire();
  };
  return { handler, retire };
}

/** What is wrong with a load that gave no handler, in a few words. */
export function loadProblem(module: IsolatedModule, load: LoadRefused): string {
  if (load.kind === 'failed') return load.error.message;
  if (load.kind === 'late') return timeoutReason(module);
  return 'it exports no function';
}

function loadedHandler(module: IsolatedModule, load: LoadRefused | HandlerWorker): WorkerLoad {
  return load instanceof HandlerWorker ? { kind: 'loaded', ...isolatedHandler(module, load) } : load;
}

/** Loads the module on a new worker at start, the process waiting for it at most the handler timeout. */
export function loadOnWorkerSync(module: IsolatedModule): WorkerLoad {
  const spawned = spawn(module);
  Atomics.wait(spawned.loaded, 0, 0, module.bounds.timeoutSeconds * 1000);
  return loadedHandler(module, settle(module, spawned, receiveMessageOnPort(spawned.port)?.message as LoadMessage | undefined));
}

/** Loads the module on a new worker without blocking: a reload. */
export async function loadOnWorker(module: IsolatedModule): Promise<WorkerLoad> {
  return loadedHandler(module, await startWorker(module));
}
