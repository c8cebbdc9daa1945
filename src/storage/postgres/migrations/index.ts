import { initialSchema } from './001-initial-schema';
import { credentialGenerations } from './002-credential-generations';
import { surveySessionCount } from './003-survey-session-count';
import { accountDataVersions } from './005-account-data-versions';
import { callRecordsVersion2 } from './004-call-records-v2';
import { fastIngest } from './006-fast-ingest';
import { accountDailyRollups } from './007-account-daily-rollups';
import { callKeysByBytes } from './008-call-keys-by-bytes';
import { sandboxScenarios } from './009-sandbox-scenarios';
import { callsByMonth } from './010-calls-by-month';
import { activeScenarios } from './011-active-scenarios';
import { rollupsByMonth } from './012-rollups-by-month';
import { scenarioDelayDistributions } from './013-scenario-delay-distributions';
import { scenarioChances } from './014-scenario-chances';
import { scenarioConnectionFaults } from './015-scenario-connection-faults';

export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * Every schema change, in order. The SQL lives in .ts modules so that it ships inside dist/ with the
 * compiled code (tsc copies no .sql files). Never edit an applied migration: append a new one.
 */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'initial schema', sql: initialSchema },
  { version: 2, name: 'credential generations', sql: credentialGenerations },
  { version: 3, name: 'survey session count', sql: surveySessionCount },
  { version: 4, name: 'call records version 2', sql: callRecordsVersion2 },
  { version: 5, name: 'account data versions', sql: accountDataVersions },
  { version: 6, name: 'unlogged rate limits, paths on calls rows', sql: fastIngest },
  { version: 7, name: 'account daily rollups', sql: accountDailyRollups },
  { version: 8, name: 'call ids and numbers compared by bytes', sql: callKeysByBytes },
  { version: 9, name: 'sandbox scenarios', sql: sandboxScenarios },
  { version: 10, name: 'calls partitioned by month, call ids apart', sql: callsByMonth },
  { version: 11, name: 'active scenarios indexed apart', sql: activeScenarios },
  { version: 12, name: 'rollups partitioned by month of their day', sql: rollupsByMonth },
  { version: 13, name: 'scenario delays drawn from distributions', sql: scenarioDelayDistributions },
  { version: 14, name: 'scenarios answering by chance', sql: scenarioChances },
  { version: 15, name: 'scenarios faulting the connection', sql: scenarioConnectionFaults },
];
