/** A failure the user can act on: printed as one line on standard error, exit code 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
}

export function reportFailure(error: unknown): void {
  const message = error instanceof CliError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error);
  process.stderr.write(`ivr-reporting: ${message}\n`);
  process.exitCode = 1;
}
