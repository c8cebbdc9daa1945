import { Command } from 'commander';

export function serveCommand(env: NodeJS.ProcessEnv): Command {
  return new Command('serve')
    .summary('run the server, as npm start does')
    .description(
      'run the server (npm start and node dist/main.js run the same); configured by the environment variables of .env.example, ' +
        'each described in docs/configuration.md',
    )
    .action(async () => {
      // The server's modules are loaded only for this command, so that `--help` and the admin commands answer at once.
      const { serve } = await import('../../server-process.js');
      await serve(env);
    });
}
