import { Command } from 'commander';
import { packageVersion } from './package-version';
import type * as AccountsModule from './commands/accounts';
import type * as DemoModule from './commands/demo';
import type * as ImportModule from './commands/import';
import type * as MirrorModule from './commands/mirror';
import type * as PhonesModule from './commands/phones';
import type * as RetentionModule from './commands/retention';
import type * as ScenarioModule from './commands/scenario';
import type * as ServeModule from './commands/serve';

/**
 * Each command by its name, in the order the help lists them, its module loaded on demand: a run of one
 * command loads that command's modules only, not those of every other. By require(), not import(): an
 * import() of CommonJS goes through the ES module loader, which costs more than the modules it spares.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- the modules of the commands not run are never loaded */
const COMMANDS: Readonly<Record<string, (env: NodeJS.ProcessEnv) => Command>> = {
  serve: (env) => (require('./commands/serve') as typeof ServeModule).serveCommand(env),
  import: (env) => (require('./commands/import') as typeof ImportModule).importCommand(env),
  accounts: (env) => (require('./commands/accounts') as typeof AccountsModule).accountsCommand(env),
  phones: (env) => (require('./commands/phones') as typeof PhonesModule).phonesCommand(env),
  scenario: (env) => (require('./commands/scenario') as typeof ScenarioModule).scenarioCommand(env),
  retention: (env) => (require('./commands/retention') as typeof RetentionModule).retentionCommand(env),
  mirror: (env) => (require('./commands/mirror') as typeof MirrorModule).mirrorCommand(env),
  demo: () => (require('./commands/demo') as typeof DemoModule).demoCommand(),
};
/* eslint-enable @typescript-eslint/no-require-imports */

/**
 * `ivr-reporting`: the server and the tools that load an operator's own data into it. With the arguments
 * naming a command (`args` as process.argv has them), the program holds that command alone; otherwise (the
 * help, the version, a mistyped command) every command, for the help to list and a mistake to be matched.
 */
export function buildProgram(env: NodeJS.ProcessEnv, args: readonly string[]): Command {
  const named = args[2];
  const names = named !== undefined && Object.hasOwn(COMMANDS, named) ? [named] : Object.keys(COMMANDS);
  const program = new Command('ivr-reporting')
    .description('IVR reporting server and its admin tools; commands that talk to a server use its admin API (ADMIN_TOKEN)')
    .version(packageVersion(), '-V, --version', 'print the version')
    .showHelpAfterError();
  for (const name of names) program.addCommand((COMMANDS[name] as (env: NodeJS.ProcessEnv) => Command)(env));
  return program;
}
