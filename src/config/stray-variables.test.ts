import { CONFIG_VARIABLES, configWarnings, loadConfig } from '../configuration';
import { PROJECT_WORDS, strayVariables, strayVariableWarning } from './stray-variables';

const warningsFor = (env: NodeJS.ProcessEnv) => strayVariables(env, CONFIG_VARIABLES).map(strayVariableWarning);

describe('variables that look meant as settings', () => {
  test('a setting misspelt by a swap, a missing underscore or a letter is named with the setting it probably means', () => {
    expect(warningsFor({ WEEK_STRAT: 'sunday', ADMIN_TOKNE: 'a-long-enough-admin-token', LOGLEVEL: 'debug', DATABASE_READ_URLS: 'postgres://replica/ivr' })).toEqual([
      'ADMIN_TOKNE is not a setting and is ignored: did you mean ADMIN_TOKEN?',
      'DATABASE_READ_URLS is not a setting and is ignored: did you mean DATABASE_READ_URL?',
      'LOGLEVEL is not a setting and is ignored: did you mean LOG_LEVEL?',
      'WEEK_STRAT is not a setting and is ignored: did you mean WEEK_START?',
    ]);
  });

  test('a setting written in lower case is named with its real name, since names are case-sensitive', () => {
    expect(warningsFor({ week_start: 'sunday' })).toEqual(['week_start is not a setting and is ignored: did you mean WEEK_START?']);
  });

  test("a name that begins with the project's words and shares another word with a setting is named with that setting", () => {
    expect(warningsFor({ SURVEY_TIMEOUT: '5', SURVEY_HANDLER_TIMEOUT: '5' })).toEqual([
      'SURVEY_HANDLER_TIMEOUT is not a setting and is ignored: did you mean SURVEY_HANDLER_TIMEOUT_SECONDS?',
      'SURVEY_TIMEOUT is not a setting and is ignored: did you mean SURVEY_HANDLER_TIMEOUT_SECONDS?',
    ]);
  });

  test("a name that only begins with the project's words is named with every setting that begins so", () => {
    expect(warningsFor({ DATABASE_PASSWORD: 'secret', REDIS_HOST: 'cache.internal' })).toEqual([
      'DATABASE_PASSWORD is not a setting and is ignored; the DATABASE_ settings are DATABASE_URL, DATABASE_READ_URL, DATABASE_POOLER and DATABASE_READ_POOLER',
      'REDIS_HOST is not a setting and is ignored; the REDIS_ settings are REDIS_URL',
    ]);
  });

  test("the settings themselves, and a shell's, npm's, CI's and the test run's variables, are not taken for misspellings", () => {
    const everySetting = Object.fromEntries(CONFIG_VARIABLES.map((name) => [name, '']));
    const others = [
      'HOME', 'HOSTNAME', 'PATH', 'PWD', 'OLDPWD', 'TERM', 'USER', 'LANG', 'SHELL', 'LOGNAME', 'SHLVL', 'MAIL', 'TZ', 'CI',
      'NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS', 'INIT_CWD', 'npm_config_cache', 'npm_lifecycle_event', 'npm_package_name',
      'TEST_DATABASE_URL', 'TEST_REDIS_URL', 'JEST_WORKER_ID', 'PGHOST', 'PGPASSWORD', 'DEBIAN_FRONTEND', 'CHROMIUM_PATH',
    ];
    expect(strayVariables({ ...everySetting, ...Object.fromEntries(others.map((name) => [name, 'x'])) }, CONFIG_VARIABLES)).toEqual([]);
  });

  test("each of the project's words begins at least one setting", () => {
    expect(PROJECT_WORDS.filter((word) => !CONFIG_VARIABLES.some((setting) => setting.startsWith(`${word}_`)))).toEqual([]);
  });

  test("the configuration keeps them, never reads their values, and lists them first among the start's warnings", () => {
    const config = loadConfig({ WEEK_STRAT: 'sunday', NODE_ENV: 'production', PUBLIC_URL: 'https://ivr.example.com' });
    expect(config.reporting.weekStart).toBe('monday');
    expect(config.strayVariables).toEqual([{ name: 'WEEK_STRAT', meant: { setting: 'WEEK_START' } }]);
    expect(Object.isFrozen(config.strayVariables[0])).toBe(true);
    expect(configWarnings(config)).toEqual(['WEEK_STRAT is not a setting and is ignored: did you mean WEEK_START?']);
  });
});
