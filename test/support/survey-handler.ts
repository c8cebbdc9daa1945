import path from 'node:path';
import { createLogger } from '../../src/logger';
import { loadSurveyHandler } from '../../src/survey/handlers/handler-module';
import type { SurveyHandler } from '../../src/domain/survey-handler';

const HANDLER_FIXTURES = path.resolve(__dirname, '../../src/survey/handlers/fixtures');

/** A module or rules file loaded as SURVEY_HANDLER loads it without SURVEY_RELOAD: once. */
export function loadHandlerOnce(modulePath: string, cwd: string): SurveyHandler {
  return loadSurveyHandler(modulePath, cwd, { reload: false, logger: createLogger('silent') });
}

/** One of the handler modules the survey tests share (src/survey/handlers/fixtures/), loaded once. */
export function loadFixtureOnce(name: string): SurveyHandler {
  return loadHandlerOnce(path.join(HANDLER_FIXTURES, name), process.cwd());
}
