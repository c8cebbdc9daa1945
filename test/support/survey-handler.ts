import { createLogger } from '../../src/logger';
import { loadSurveyHandler } from '../../src/survey/handler-module';
import type { SurveyHandler } from '../../src/domain/survey-handler';

/** A module or rules file loaded as SURVEY_HANDLER loads it without SURVEY_RELOAD: once. */
export function loadHandlerOnce(modulePath: string, cwd: string): SurveyHandler {
  return loadSurveyHandler(modulePath, cwd, { reload: false, logger: createLogger('silent') });
}
