import { Command } from 'commander';
import { accountsCommand } from './commands/accounts';
import { demoCommand } from './commands/demo';
import { importCommand } from './commands/import';
import { phonesCommand } from './commands/phones';
import { serveCommand } from './commands/serve';

/** `ivr-reporting`: the server and the tools that load an operator's own data into it. */
export function buildProgram(env: NodeJS.ProcessEnv): Command {
  return new Command('ivr-reporting')
    .description('IVR reporting server and its admin tools; commands that talk to a server use its admin API (ADMIN_TOKEN)')
    .showHelpAfterError()
    .addCommand(serveCommand(env))
    .addCommand(importCommand(env))
    .addCommand(accountsCommand(env))
    .addCommand(phonesCommand(env))
    .addCommand(demoCommand());
}
