import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { types } from 'node:util';
import type { Logger } from 'pino';
import { ConfigError } from '../../config/config-error';
import { fileStampSync, reloadingHandler, type HandlerReading, type Refusal } from './handler-reload';
import type { SurveyHandler } from '../../domain/survey-handler';
import type { EvaluationBounds } from '../evaluation-bounds';
import { loadOnWorker, loadOnWorkerSync, loadProblem, type IsolatedModule, type WorkerLoad } from './handler-worker';
import { isRulesFile, mistakeText, readRulesFile, type RulesReading } from '../rules/rules-file';
import { rulesHandler } from '../rules/rules-handler';

export interface SurveyHandlerOptions {
  /**
   * SURVEY_RELOAD: the file is read again on the first call after it changed on disk, a version not
   * loaded within half of SURVEY_HANDLER_TIMEOUT_SECONDS counting as one that does not load.
   */
  readonly reload: false | { readonly loadTimeoutSeconds: number };
  /** What a call may take and return: a rules file's matches are dropped at the timeout, a worker checks the sizes. */
  readonly bounds: EvaluationBounds;
  /**
   * SURVEY_HANDLER_ISOLATION=worker: a module is loaded and run on a worker thread, stopped and started
   * again when a call takes longer than the handler timeout (handler-worker.ts). Rules files never are.
   */
  readonly isolated?: boolean;
  /** Where reloads, the versions refused and the workers stopped are logged. */
  readonly logger: Logger;
  /** Where the path came from, as messages name it; `SURVEY_HANDLER="<path>"` unless given. */
  readonly setting?: string;
}

/** The handler function of a loaded module: `module.exports = fn`, a default export, or an export named evaluate. */
function handlerExport(loaded: unknown): SurveyHandler | undefined {
  if (typeof loaded === 'function') return loaded as SurveyHandler;
  if (typeof loaded !== 'object' || loaded === null) return undefined;
  const { default: byDefault, evaluate } = loaded as { default?: unknown; evaluate?: unknown };
  if (typeof byDefault === 'function') return byDefault as SurveyHandler;
  if (typeof evaluate === 'function') return evaluate as SurveyHandler;
  return undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The line of the module's own file that an error's stack names: a syntax error of a CommonJS module
 * begins it with `file:line`; an error thrown while loading has a frame `at ... (file:line:column)`, or
 * `at file:line:column`, the file's URL for an ES module. Undefined when the stack names no line of the
 * file: a syntax error of an ES module, a module not found, an error thrown by a module it requires.
 */
function lineInFile(stack: unknown, file: string): number | undefined {
  if (typeof stack !== 'string') return undefined;
  const places = `${escapeRegExp(file)}|${escapeRegExp(pathToFileURL(file).href)}(?:\\?[^:\\s]*)?`;
  const line = new RegExp(`(?:^|\\(|at )(?:${places}):(\\d+)`, 'm').exec(stack)?.[1];
  return line === undefined ? undefined : Number(line);
}

/** A module's reading, and whether Node's ES module loader had the file: it keeps what it loads, failures too. */
type ModuleReading = HandlerReading & { readonly viaEsModuleLoader: boolean };

function loadFailure(error: unknown, file: string): ModuleReading {
  // Errors from a module's own realm (a VM context, jest) are not instanceof this realm's Error.
  const { message, stack } = (error ?? {}) as { message?: unknown; stack?: unknown };
  const reason = typeof message === 'string' ? message.split('\n')[0] : String(error);
  const line = lineInFile(stack, file);
  return {
    ok: false,
    refusal: { reason: `cannot load ${file}${line === undefined ? '' : `, line ${line}`}: ${reason}` },
    // require() hands an ES module to that loader, whose frames the stack then shows.
    viaEsModuleLoader: typeof stack === 'string' && stack.includes('node:internal/modules/esm/'),
  };
}

const exportsNoFunction = (file: string): Refusal => ({
  reason: `${file} exports no function; use module.exports = fn, a default export, or an export named evaluate`,
});

function moduleReading(loaded: unknown, handler: SurveyHandler | undefined, file: string): ModuleReading {
  const viaEsModuleLoader = types.isModuleNamespaceObject(loaded);
  if (handler === undefined) return { ok: false, refusal: exportsNoFunction(file), viaEsModuleLoader };
  return { ok: true, handler, viaEsModuleLoader };
}

/**
 * Node's require: CommonJS, or an ES module without top-level await. Under jest, createRequire is jest's
 * own, which loads only CommonJS and never forgets a module: the suites that load an ES module, or a
 * module again, run the server as a process.
 */
function requireModule(file: string): ModuleReading {
  let loaded: unknown;
  try {
    // A require of its own each time: the parent module that createRequire makes keeps every module it
    // loaded as a child, so a shared one would keep every old version of a reloaded module.
    loaded = createRequire(__filename)(file);
  } catch (error) {
    return loadFailure(error, file);
  }
  return moduleReading(loaded, handlerExport(loaded), file);
}

/**
 * A module loaded again. CommonJS: dropped from the require cache and required anew. Node's ES module
 * loader, which also runs the ES modules that require() takes, never forgets a module, nor a failure to
 * evaluate one: a file it has had is imported under a URL of its own each time (`?reload=n`), and every
 * version stays in memory until the process ends.
 */
async function loadModuleAgain(file: string, viaEsModuleLoader: boolean, reload: number): Promise<ModuleReading> {
  Reflect.deleteProperty(createRequire(__filename).cache, file);
  if (!viaEsModuleLoader) return requireModule(file);
  let loaded: unknown;
  try {
    loaded = await import(`${pathToFileURL(file).href}?reload=${reload}`);
  } catch (error) {
    return loadFailure(error, file);
  }
  // A CommonJS file imported has its module.exports as default export: what require() would have returned.
  const handler = handlerExport(loaded) ?? handlerExport((loaded as { default?: unknown }).default);
  return moduleReading(loaded, handler, file);
}

/** Reads the rules file (`.json`, `.yaml`, `.yml`); every mistake is one line naming its line and column. */
function readRules(file: string, timeoutSeconds: number): HandlerReading {
  let reading: RulesReading;
  try {
    reading = readRulesFile(file);
  } catch (error) {
    return { ok: false, refusal: { reason: `cannot read ${file}: ${(error as Error).message}` } };
  }
  if (!reading.ok) return { ok: false, refusal: { mistakes: reading.mistakes.map(mistakeText) } };
  return { ok: true, handler: rulesHandler(reading.rules, timeoutSeconds) };
}

/** How one kind of file is read: at start, and again after it changed. */
interface FileLoader {
  readonly atStart: () => HandlerReading;
  readonly again: () => Promise<HandlerReading>;
}

function rulesLoader(file: string, timeoutSeconds: number): FileLoader {
  return { atStart: () => readRules(file, timeoutSeconds), again: () => Promise.resolve(readRules(file, timeoutSeconds)) };
}

function moduleLoader(file: string): FileLoader {
  let viaEsModuleLoader = false;
  let reloads = 0;
  // Once the ES module loader has had the file, only a new URL gets a new version from it.
  const noted = (reading: ModuleReading): ModuleReading => {
    viaEsModuleLoader ||= reading.viaEsModuleLoader;
    return reading;
  };
  return {
    atStart: () => noted(requireModule(file)),
    again: async () => {
      reloads += 1;
      return noted(await loadModuleAgain(file, viaEsModuleLoader, reloads));
    },
  };
}

/** A module as a worker loaded it: each version on a thread of its own, the one it replaces ended once idle. */
function workerLoader(module: IsolatedModule): FileLoader {
  let retireLast = (): void => {};
  const reading = (load: WorkerLoad): HandlerReading => {
    if (load.kind === 'loaded') {
      retireLast();
      retireLast = load.retire;
      return { ok: true, handler: load.handler };
    }
    if (load.kind === 'failed') return loadFailure(load.error, module.file);
    if (load.kind === 'no function') return { ok: false, refusal: exportsNoFunction(module.file) };
    return { ok: false, refusal: { reason: `cannot load ${module.file}: ${loadProblem(module, load)}` } };
  };
  return { atStart: () => reading(loadOnWorkerSync(module)), again: async () => reading(await loadOnWorker(module)) };
}

/** The ConfigError of a start: one line per mistake, each naming the setting. */
function startRefused(setting: string, file: string, refusal: Refusal): ConfigError {
  const lines = 'reason' in refusal ? [refusal.reason] : refusal.mistakes.map((mistake) => `${file}, ${mistake}`);
  return new ConfigError(lines.map((line) => `${setting}: ${line}`).join('\n'));
}

/**
 * Loads a service's handler (SURVEY_HANDLER's, or one SURVEY_SERVICES names), at start: a path resolved from `cwd`, CommonJS or an ES module
 * without top-level await; or a rules file, by its extension. Throws ConfigError naming the setting, so
 * that a bad file stops the start instead of failing on the first call. With `reload`, the handler
 * returned reads the file again on the first call after it changed (handler-reload.ts); without, it is
 * the module's own function, and a call costs nothing more. With `worker`, a module is loaded and run on
 * a worker thread (handler-worker.ts).
 */
export function loadSurveyHandler(modulePath: string, cwd: string, options: SurveyHandlerOptions): SurveyHandler {
  const setting = options.setting ?? `SURVEY_HANDLER=${JSON.stringify(modulePath)}`;
  const file = path.resolve(cwd, modulePath);
  const { bounds, logger } = options;
  const loader = isRulesFile(file)
    ? rulesLoader(file, bounds.timeoutSeconds)
    : options.isolated === true
      ? workerLoader({ file, bounds, logger })
      : moduleLoader(file);
  // Taken before the file is read: a change made while it loads is then seen on the next call.
  const stamp = options.reload === false ? undefined : fileStampSync(file);
  const reading = loader.atStart();
  if (!reading.ok) throw startRefused(setting, file, reading.refusal);
  if (options.reload === false || stamp === undefined) return reading.handler;
  const { loadTimeoutSeconds } = options.reload;
  return reloadingHandler({ file, setting, logger: options.logger, first: { handler: reading.handler, stamp }, readAgain: loader.again, loadTimeoutSeconds });
}
