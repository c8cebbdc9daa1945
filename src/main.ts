import { reportFailure } from './cli/cli-error';
import { serveCommand } from './cli/commands/serve';
import { packageVersion } from './cli/package-version';

// `npm start` (node dist/main.js) is `ivr-reporting serve`: the same help and version, and the same refusal
// of an argument it does not take, rather than a server started whatever the arguments say.
serveCommand(process.env)
  .name('npm start')
  .version(packageVersion(), '-V, --version', 'print the version')
  .showHelpAfterError()
  .parseAsync(process.argv)
  .catch(reportFailure);
