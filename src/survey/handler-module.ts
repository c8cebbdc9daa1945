import { createRequire } from 'node:module';
import path from 'node:path';
import { ConfigError } from '../config/config';
import type { SurveyHandler } from './survey-handler';
import { isRulesFile, mistakeText, readRulesFile, type RulesReading } from './rules/rules-file';
import { rulesHandler } from './rules/rules-handler';

/** The handler function of a loaded module: `module.exports = fn`, a default export, or an export named evaluate. */
function handlerExport(loaded: unknown): SurveyHandler | undefined {
  if (typeof loaded === 'function') return loaded as SurveyHandler;
  if (typeof loaded !== 'object' || loaded === null) return undefined;
  const { default: byDefault, evaluate } = loaded as { default?: unknown; evaluate?: unknown };
  if (typeof byDefault === 'function') return byDefault as SurveyHandler;
  if (typeof evaluate === 'function') return evaluate as SurveyHandler;
  return undefined;
}

/**
 * Reads the rules file SURVEY_HANDLER names (`.json`, `.yaml`, `.yml`), once, at start. Every mistake is
 * one line of the ConfigError, naming the variable, the file, the line and column, and the mistake.
 */
function loadRulesHandler(filePath: string, resolved: string): SurveyHandler {
  const variable = `SURVEY_HANDLER=${JSON.stringify(filePath)}`;
  let reading: RulesReading;
  try {
    reading = readRulesFile(resolved);
  } catch (error) {
    throw new ConfigError(`${variable}: cannot read ${resolved}: ${(error as Error).message}`);
  }
  if (!reading.ok) throw new ConfigError(reading.mistakes.map((mistake) => `${variable}: ${resolved}, ${mistakeText(mistake)}`).join('\n'));
  return rulesHandler(reading.rules);
}

/**
 * Loads the module SURVEY_HANDLER names, once, at start: a path resolved from `cwd`, CommonJS or an ES
 * module without top-level await; or a rules file, by its extension. Throws ConfigError naming the variable, so that a bad path stops the
 * start instead of failing on the first call.
 */
export function loadSurveyHandler(modulePath: string, cwd: string): SurveyHandler {
  const resolved = path.resolve(cwd, modulePath);
  if (isRulesFile(resolved)) return loadRulesHandler(modulePath, resolved);
  // Node's own loader, also under jest, so a handler loads as in production; the path is absolute.
  const load = createRequire(__filename);
  let loaded: unknown;
  try {
    loaded = load(resolved);
  } catch (error) {
    // Errors from a module's own realm (a VM context, jest) are not instanceof this realm's Error.
    const message: unknown = (error as { message?: unknown } | undefined)?.message;
    const reason = typeof message === 'string' ? message.split('\n')[0] : String(error);
    throw new ConfigError(`SURVEY_HANDLER=${JSON.stringify(modulePath)}: cannot load ${resolved}: ${reason}`);
  }
  const handler = handlerExport(loaded);
  if (handler === undefined) {
    throw new ConfigError(
      `SURVEY_HANDLER=${JSON.stringify(modulePath)}: ${resolved} exports no function; ` +
        'use module.exports = fn, a default export, or an export named evaluate',
    );
  }
  return handler;
}
