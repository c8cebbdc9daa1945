import { Command } from 'commander';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { accountsCommand } from './commands/accounts';
import { demoCommand } from './commands/demo';
import { importCommand } from './commands/import';
import { mirrorCommand } from './commands/mirror';
import { phonesCommand } from './commands/phones';
import { retentionCommand } from './commands/retention';
import { scenarioCommand } from './commands/scenario';
import { serveCommand } from './commands/serve';

/** The package's own version: src/cli and dist/cli are both two folders below package.json. */
function packageVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

/** `ivr-reporting`: the server and the tools that load an operator's own data into it. */
export function buildProgram(env: NodeJS.ProcessEnv): Command {
  return new Command('ivr-reporting')
    .description('IVR reporting server and its admin tools; commands that talk to a server use its admin API (ADMIN_TOKEN)')
    .version(packageVersion(), '-V, --version', 'print the version')
    .showHelpAfterError()
    .addCommand(serveCommand(env))
    .addCommand(importCommand(env))
    .addCommand(accountsCommand(env))
    .addCommand(phonesCommand(env))
    .addCommand(scenarioCommand(env))
    .addCommand(retentionCommand(env))
    .addCommand(mirrorCommand(env))
    .addCommand(demoCommand());
}
