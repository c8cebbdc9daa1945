import { Command } from 'commander';
import { serve } from '../../serve';

export function serveCommand(env: NodeJS.ProcessEnv): Command {
  return new Command('serve')
    .summary('run the server, as npm start does')
    .description('run the server, as npm start does; configured by the environment variables of .env.example')
    .action(() => serve(env));
}
