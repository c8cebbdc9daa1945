import { statSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Logger } from 'pino';
import type { SurveyHandler } from '../../domain/survey-handler';

/** What is wrong with a version of the file: one reason, or the mistakes of a rules file, each with its line and column. */
export type Refusal = { readonly reason: string } | { readonly mistakes: readonly string[] };

/** One version of the file, read: its handler, or why it is refused. */
export type HandlerReading = { readonly ok: true; readonly handler: SurveyHandler } | { readonly ok: false; readonly refusal: Refusal };

/**
 * What tells one version of the file from another, without reading it: the modification time; the size,
 * for an edit within the file system's time granularity; the change time, which every write sets and no
 * tool restores (cp -p, rsync -t and tar put the old mtime back); the inode, for an editor that saves by
 * renaming a new file over the old one. One stat per call, where a hash would read the whole file.
 */
function stampOf(stats: Stats): string {
  return `${stats.ino}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
}

function unreadableStamp(error: unknown): string {
  return `unreadable: ${String((error as { code?: unknown } | undefined)?.code ?? error)}`;
}

/** The stamp of the file at start, taken before it is first read. */
export function fileStampSync(file: string): string {
  try {
    return stampOf(statSync(file));
  } catch (error) {
    return unreadableStamp(error);
  }
}

async function fileStamp(file: string): Promise<string> {
  try {
    return stampOf(await stat(file));
  } catch (error) {
    return unreadableStamp(error);
  }
}

export interface Reloadable {
  /** The absolute path of the module or rules file. */
  readonly file: string;
  /** Where the path came from, as `SURVEY_HANDLER="rules.yaml"`. */
  readonly setting: string;
  readonly logger: Logger;
  /** The version loaded at start, and the file's stamp taken before it was read. */
  readonly first: { readonly handler: SurveyHandler; readonly stamp: string };
  /** Reads the file again, as it is now. */
  readonly readAgain: () => Promise<HandlerReading>;
  /** Half of SURVEY_HANDLER_TIMEOUT_SECONDS: a version still loading after it counts as one that does not load. */
  readonly loadTimeoutSeconds: number;
}

const LATE = Symbol('late');

/** The log line of a refused version, naming the setting, the file and what is wrong with it. */
function logRefusal({ file, setting, logger }: Reloadable, refusal: Refusal): void {
  const details = 'reason' in refusal ? { file, reason: refusal.reason } : { file, mistakes: refusal.mistakes };
  const what = 'reason' in refusal ? refusal.reason : `${file}, ${refusal.mistakes.join('; ')}`;
  logger.error(details, `survey handler not reloaded: ${setting}: ${what}; the last good one keeps answering`);
}

/**
 * SURVEY_RELOAD's handler: each call first looks whether the file changed since it was last read, and if
 * so reads it again before answering. A version that does not load or has mistakes is logged once and
 * not read again until the file changes again; the last good version keeps answering. Calls that arrive
 * while the file is looked at or read wait for that one check and answer with its outcome, so there is
 * one reload at a time and every call is answered by a whole version; a call already running keeps the
 * version it started with.
 *
 * A check lasts at most `loadTimeoutSeconds`, half the handler timeout: an ES module whose top-level await
 * never settles would otherwise hold every later call, and its body, for good. The other half leaves the
 * calls waiting for the check (each under its own timeout, survey/sessions/answer-call.ts) the time to be answered by the
 * last good version, even when the look at the file was itself slow. Node's loader keeps the unsettled module.
 */
export function reloadingHandler(reloadable: Reloadable): SurveyHandler {
  const { file, logger, readAgain, loadTimeoutSeconds } = reloadable;
  let current = reloadable.first.handler;
  let lastRead = reloadable.first.stamp;
  let checking: Promise<SurveyHandler> | undefined;

  const reloadIfChanged = async (deadline: Promise<typeof LATE>): Promise<SurveyHandler> => {
    const stamp = await fileStamp(file);
    if (stamp === lastRead) return current;
    lastRead = stamp;
    const reading = await Promise.race([readAgain(), deadline]);
    if (reading === LATE) {
      const reason = `cannot load ${file}: not loaded within ${loadTimeoutSeconds} s, half of SURVEY_HANDLER_TIMEOUT_SECONDS; a top-level await that never settles?`;
      logRefusal(reloadable, { reason });
    } else if (reading.ok) {
      current = reading.handler;
      logger.info({ file }, 'survey handler reloaded');
    } else {
      logRefusal(reloadable, reading.refusal);
    }
    return current;
  };

  const check = (): Promise<SurveyHandler> => {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<typeof LATE>((resolve) => {
      timer = setTimeout(resolve, loadTimeoutSeconds * 1000, LATE);
    });
    return reloadIfChanged(deadline).finally(() => {
      clearTimeout(timer);
      checking = undefined;
    });
  };

  return async (call) => {
    checking ??= check();
    const handler = await checking;
    return handler(call);
  };
}
