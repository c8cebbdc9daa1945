import { reportFailure } from './cli-error';
import { buildProgram } from './program';

// `ivr-reporting demo | head` closes the pipe early; that is the reader's choice, not a failure.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

buildProgram(process.env, process.argv).parseAsync(process.argv).catch(reportFailure);
