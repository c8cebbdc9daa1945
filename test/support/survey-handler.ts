import path from 'node:path';
import { loadConfig } from '../../src/configuration';
import { createLogger } from '../../src/logger';
import { loadSurveyHandler } from '../../src/survey/handlers/handler-module';
import type { SurveyHandler } from '../../src/domain/survey-handler';

const HANDLER_FIXTURES = path.resolve(__dirname, '../../src/survey/handlers/fixtures');

/** What a handler's call may take and return when no variable says otherwise. */
export const DEFAULT_EVALUATION_BOUNDS = loadConfig({}).survey.evaluation;

/** A module or rules file loaded as SURVEY_HANDLER loads it without SURVEY_RELOAD: once. */
export function loadHandlerOnce(modulePath: string, cwd: string): SurveyHandler {
  return loadSurveyHandler(modulePath, cwd, { reload: false, bounds: DEFAULT_EVALUATION_BOUNDS, logger: createLogger('silent') });
}

/** One of the handler modules the survey tests share (src/survey/handlers/fixtures/), loaded once. */
export function loadFixtureOnce(name: string): SurveyHandler {
  return loadHandlerOnce(path.join(HANDLER_FIXTURES, name), process.cwd());
}
